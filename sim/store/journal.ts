import { open, rename, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { syncDirectory } from './durable-json-file.ts';

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
  /** Lines appended since markRotation(): what the journal keeps when it is rotated. */
  private sinceMark: string[] | null = null;
  private paused = false;
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
    this.sinceMark?.push(line);
    this.lines += 1;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.kick();
    return done;
  }

  /** Queues a line that nobody waits for; it is flushed with the next durable write or at close. */
  appendLazily(line: string): void {
    if (this.failure) return;
    this.pending.push(line);
    this.sinceMark?.push(line);
    this.lines += 1;
  }

  /**
   * Nothing is being written and nothing has failed: every durable line queued so
   * far is on disk, so settled() would resolve at once (the synchronous fast path).
   */
  idle(): boolean {
    return this.flushing === null && !this.paused && this.waiters.length === 0 && this.failure === null;
  }

  /** Settles once every durable line queued so far is on disk. */
  async settled(): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.idle()) await this.nextFlush();
  }

  /** Settles once every line queued so far, lazy ones included, is on disk. */
  async flushAll(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.pending.length > 0 || !this.idle()) await this.nextFlush();
  }

  private nextFlush(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.kick();
    });
  }

  /** From now on, appended lines are kept for rotate(): the state before this point is being checkpointed. */
  markRotation(): void {
    this.sinceMark = [];
  }

  /** Forgets a mark whose checkpoint did not complete (the journal keeps everything). */
  dropMark(): void {
    this.sinceMark = null;
  }

  /**
   * Replaces the journal with the lines appended since markRotation(), once the
   * checkpoint holding everything before them is on disk. The new file is
   * written and flushed beside the old one and renamed over it, so a crash
   * leaves one of the two whole; appends wait (queued) meanwhile and are
   * answered once the new file holds them.
   */
  async rotate(): Promise<void> {
    const kept = this.sinceMark;
    if (!kept) throw new Error('journal rotation without a mark');
    this.paused = true;
    let covered: typeof this.waiters = [];
    try {
      while (this.flushing) await this.flushing;
      if (this.failure) throw this.failure;
      const temporary = join(dirname(this.path), `.${basename(this.path)}.tmp`);
      // Everything appended so far: the lines since the mark, and the waiters of
      // these and of earlier lines (which the checkpoint holds).
      const lines = [...kept];
      covered = this.waiters;
      this.waiters = [];
      const next = await open(temporary, 'w');
      try {
        if (lines.length > 0) await next.write(lines.join(''));
        await next.datasync();
        await rename(temporary, this.path);
        await syncDirectory(dirname(this.path));
      } catch (error) {
        await next.close();
        throw error;
      }
      const old = this.handle;
      this.handle = next;
      await old.close();
      this.sinceMark = null;
      this.lines = kept.length;
      // Lines appended while the new file was being written go into it next.
      this.pending = kept.slice(lines.length);
      for (const w of covered) w.resolve();
    } catch (error) {
      this.failure = new Error(`The store journal ${this.path} could not be rotated: ${(error as Error).message}`);
      for (const w of [...covered, ...this.waiters]) w.reject(this.failure);
      this.waiters = [];
      throw this.failure;
    } finally {
      this.paused = false;
    }
    this.kick();
  }

  async close(): Promise<void> {
    await this.flushAll();
    await this.handle.close();
  }

  private kick(): void {
    if (this.paused || this.flushing || this.waiters.length === 0) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = null;
    });
  }

  private async flushLoop(): Promise<void> {
    // A rotation waiting for this loop (paused) takes over the lines queued meanwhile.
    while (this.waiters.length > 0 && !this.failure && !this.paused) {
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
