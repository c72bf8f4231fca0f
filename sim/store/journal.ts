import { open, type FileHandle } from 'node:fs/promises';

/**
 * The append-only journal beside the snapshot. Each committed transaction is
 * one JSON line. Lines queued while a flush is under way are written together
 * and flushed once (group commit), so a durable write costs one append and one
 * fdatasync whatever the size of the store.
 */
export class Journal {
  private pending: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  private flushing: Promise<void> | null = null;
  private failure: Error | null = null;
  lines = 0;

  private constructor(private handle: FileHandle, readonly path: string) {}

  static async open(path: string, existingLines: number): Promise<Journal> {
    const journal = new Journal(await open(path, 'a'), path);
    journal.lines = existingLines;
    return journal;
  }

  get failed(): Error | null {
    return this.failure;
  }

  /** Queues a line; the promise settles when it is on disk. */
  append(line: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.pending.push(line);
    this.lines += 1;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.kick();
    return done;
  }

  /** Queues a line that nobody waits for; it is flushed with the next durable write or at close. */
  appendLazily(line: string): void {
    if (this.failure) return;
    this.pending.push(line);
    this.lines += 1;
  }

  /**
   * Nothing is being written and nothing has failed: every durable line queued so
   * far is on disk, so settled() would resolve at once (the synchronous fast path).
   */
  idle(): boolean {
    return this.flushing === null && this.failure === null;
  }

  /** Settles once everything queued so far is on disk. */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.failure) throw this.failure;
  }

  async flushAll(): Promise<void> {
    if (this.pending.length > 0) {
      this.waiters.push({ resolve: () => undefined, reject: () => undefined });
      this.kick();
    }
    await this.settled();
  }

  async truncate(): Promise<void> {
    await this.settled();
    await this.handle.truncate(0);
    await this.handle.sync();
    this.lines = 0;
  }

  async close(): Promise<void> {
    await this.flushAll();
    await this.handle.close();
  }

  private kick(): void {
    if (this.flushing || this.waiters.length === 0) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = null;
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.waiters.length > 0 && !this.failure) {
      const lines = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        if (lines.length > 0) {
          await this.handle.write(lines.join(''));
          await this.handle.datasync();
        }
        for (const w of waiters) w.resolve();
      } catch (error) {
        this.failure = new Error(`The store journal ${this.path} could not be written: ${(error as Error).message}`);
        for (const w of waiters) w.reject(this.failure);
      }
    }
  }
}
