import { rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AcknowledgedSeq } from './acknowledged-seq.ts';
import { syncDirectory, temporaryOf } from './durable-json-file.ts';
import { seqOf } from './journal-format.ts';
import { nodeStoreFs, writeAll, type StoreFs } from './store-fs.ts';
import { StoreWriteError } from './store-write-error.ts';

/** What the journal tells its store about the lines it was given, oldest first. */
export interface JournalEvents {
  /** The oldest `count` lines not yet on disk now are. */
  durable(count: number): void;
  /**
   * Every line not yet on disk (the last `count` appended) was refused: none of
   * it is in the file. Called before anyone waiting on them hears of it, so the
   * store takes their changes back before any answer leaves.
   */
  refused(count: number): void;
}

/**
 * The append-only journal beside the snapshot. Its first line is a header
 * naming the snapshot it follows (journalHeader); each committed transaction is
 * then one checksummed JSON line (journalLine). Lines queued while a flush is under way are written together
 * and flushed once (group commit), so a durable write costs one append and one
 * fdatasync whatever the size of the store.
 *
 * A batch that does not reach the disk whole (a short write, ENOSPC, a failed
 * fdatasync) is refused with every line queued behind it (they were built on
 * it), and the file is cut back to its last flushed length, so no byte of a
 * refused line is read back at the next open. Nothing stays failed: the next
 * append tries the disk again.
 */
export class Journal {
  private pending: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  private flushing: Promise<void> | null = null;
  /** Lines appended since markRotation(): what the journal keeps when it is rotated. */
  private sinceMark: string[] | null = null;
  private paused = false;
  /** Bytes known to be on disk: where the file is cut back to after a refused batch. */
  private size: number;
  /** The last cut-back failed: the file may hold refused bytes, so nothing is appended until a cut succeeds. */
  private uncut: Error | null = null;
  lines = 0;

  private constructor(
    private handle: FileHandle,
    readonly path: string,
    size: number,
    private readonly fs: StoreFs,
    private readonly events: JournalEvents,
    /** Told the last change of each batch once it is on disk (acknowledged-seq.ts); null in tests of the journal alone. */
    private readonly acknowledged: AcknowledgedSeq | null,
  ) {
    this.size = size;
  }

  static async open(path: string, existingLines: number, events: JournalEvents, fs: StoreFs = nodeStoreFs, acknowledged: AcknowledgedSeq | null = null): Promise<Journal> {
    const handle = await fs.open(path, 'a');
    const { size } = await handle.stat();
    const journal = new Journal(handle, path, size, fs, events, acknowledged);
    journal.lines = existingLines;
    return journal;
  }

  /** Queues a line; the promise settles when it is on disk (or rejects with a StoreWriteError when it was refused). */
  append(line: string): Promise<void> {
    this.pending.push(line);
    this.sinceMark?.push(line);
    this.lines += 1;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.kick();
    return done;
  }

  /**
   * Nothing is being written: every line queued so far is on disk, so
   * settled() would resolve at once (the synchronous fast path).
   */
  idle(): boolean {
    return this.flushing === null && !this.paused && this.waiters.length === 0;
  }

  /** Settles once every line queued so far is on disk; rejects when they were refused. */
  async settled(): Promise<void> {
    if (!this.idle()) await this.nextFlush();
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
   * answered once the new file holds them. `header` (journalHeader) starts the new
   * file. When the new file cannot be written, the old one stays in use (it holds
   * everything the snapshot does and more) and the queued lines go to it.
   */
  async rotate(header: string): Promise<void> {
    const kept = this.sinceMark;
    if (!kept) throw new Error('journal rotation without a mark');
    this.paused = true;
    try {
      while (this.flushing) await this.flushing;
      // Everything appended so far: the lines since the mark (the last `unwritten`
      // of them not in the old file yet), and the waiters of these and of earlier
      // lines (which the checkpoint holds).
      const lines = [...kept];
      const unwritten = this.pending.length;
      const covered = this.waiters;
      this.waiters = [];
      const temporary = temporaryOf(this.path);
      const bytes = Buffer.from(header + lines.join(''));
      let next: FileHandle | null = null;
      try {
        next = await this.fs.open(temporary, 'w');
        await writeAll(next, bytes, 0, temporary);
        await next.datasync();
        await rename(temporary, this.path);
      } catch (error) {
        await next?.close().catch(() => undefined);
        await unlink(temporary).catch(() => undefined);
        this.sinceMark = null;
        this.waiters = [...covered, ...this.waiters];
        throw new StoreWriteError(temporary, error);
      }
      // The rename is the switch: both files hold every line the snapshot does not,
      // so one whose rename is lost to a power cut is as good as the other.
      await syncDirectory(dirname(this.path)).catch(() => undefined);
      const old = this.handle;
      this.handle = next;
      await old.close();
      this.sinceMark = null;
      this.lines = kept.length;
      this.size = bytes.length;
      // Lines appended while the new file was being written go into it next.
      this.pending = kept.slice(lines.length);
      this.events.durable(unwritten);
      for (const w of covered) w.resolve();
    } finally {
      this.paused = false;
      this.kick();
    }
  }

  /** Writes what is queued and closes the file; a refused last batch still closes it. */
  async close(): Promise<void> {
    try {
      await this.settled();
    } finally {
      await this.handle.close();
      await this.acknowledged?.close();
    }
  }

  private kick(): void {
    if (this.paused || this.flushing || this.waiters.length === 0) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = null;
    });
  }

  private async flushLoop(): Promise<void> {
    // A rotation waiting for this loop (paused) takes over the lines queued meanwhile.
    while (this.waiters.length > 0 && !this.paused) {
      const lines = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      try {
        if (this.uncut) await this.cutBack();
        if (lines.length > 0) {
          const bytes = Buffer.from(lines.join(''));
          // At the flushed length, not the file's position: after a cut-back the
          // position of a handle not opened to append (a rotated journal's) is past the end.
          await writeAll(this.handle, bytes, this.size, this.path);
          await this.handle.datasync();
          // Before anyone hears: from here a journal ending earlier has lost acknowledged changes.
          await this.acknowledged?.record(seqOf(lines[lines.length - 1]));
          this.size += bytes.length;
        }
        this.events.durable(lines.length);
        for (const w of waiters) w.resolve();
      } catch (error) {
        // Part of the batch may be in the file: cut it off before anything else is
        // written or anyone is answered (a crash after the answer must not bring it back).
        await this.cutBack().catch(() => undefined);
        this.refuseQueued(waiters, lines.length, error);
      }
    }
  }

  /** Cuts the file back to its flushed length; until that succeeds, every batch is refused. */
  private async cutBack(): Promise<void> {
    try {
      await this.handle.truncate(this.size);
      await this.handle.datasync();
      this.uncut = null;
    } catch (error) {
      this.uncut = error as Error;
      throw error;
    }
  }

  /** Refuses a failed batch (its `batchLines` lines and `batchWaiters`) and everything queued behind it. */
  private refuseQueued(batchWaiters: typeof this.waiters, batchLines: number, cause: unknown): void {
    const refused = [...batchWaiters, ...this.waiters];
    const count = batchLines + this.pending.length;
    this.pending = [];
    this.waiters = [];
    this.lines -= count;
    if (this.sinceMark) this.sinceMark.length = Math.max(0, this.sinceMark.length - count);
    const failure = cause instanceof StoreWriteError ? cause : new StoreWriteError(this.path, cause);
    this.events.refused(count);
    for (const w of refused) w.reject(failure);
  }
}

export { entriesAfter, journalHeader, journalLine, parseJournal, type JournalEntry, type JournalHeader, type JournalOp, type ParsedJournal, type PlacedEntry } from './journal-format.ts';
