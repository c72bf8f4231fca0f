import { open, rename, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkFrame, frame } from './checksum.ts';
import { syncDirectory } from './durable-json-file.ts';
import { StoreFileError } from './store-file-error.ts';

/**
 * The append-only journal beside the snapshot. Its first line is a header
 * naming the snapshot it follows (journalHeader); each committed transaction is
 * then one checksummed JSON line (journalLine). Lines queued while a flush is under way are written together
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
   * answered once the new file holds them. `header` (journalHeader) starts the new file.
   */
  async rotate(header: string): Promise<void> {
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
        await next.write(header + lines.join(''));
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

/** One transaction's writes: [collection, id, row or null for a delete]. */
export type JournalOp = [collection: string, id: string, row: { readonly id: string } | null];

export interface JournalEntry {
  s: number;
  o: JournalOp[];
  m?: Array<[string, unknown]>;
}

/**
 * The journal's first line: it is generation `journal`, and its first entry is
 * `after + 1`. The snapshot names the generation that follows it, so a journal
 * emptied, cut into, swapped for another or left behind by a later snapshot is
 * told apart from one that merely holds nothing yet.
 */
export interface JournalHeader {
  journal: number;
  after: number;
}

export const journalHeader = (journal: number, after: number): string => `${frame(JSON.stringify({ journal, after }))}\n`;

export const journalLine = (entry: JournalEntry): string => `${frame(JSON.stringify(entry))}\n`;

/** An entry and where it is (for refusals naming it). */
export interface PlacedEntry {
  entry: JournalEntry;
  line: number;
  byte: number;
}

export interface ParsedJournal {
  header: JournalHeader | null;
  entries: PlacedEntry[];
  /** Bytes up to the end of the last complete line: what follows is a torn tail. */
  validLength: number;
}

const NEWLINE = 0x0a;

/**
 * Reads a journal's bytes, checking every complete line's checksum. Only a torn
 * tail (bytes after the last newline: a crash mid-append, never acknowledged,
 * since answers wait for the flush) is left out. `unframedAllowed`: lines with
 * no checksum are read as written by a store from before checksums (a journal
 * without a header beside a version 1 or 2 snapshot).
 */
export function parseJournal(path: string, bytes: Buffer, unframedAllowed: boolean): ParsedJournal {
  let header: JournalHeader | null = null;
  const entries: PlacedEntry[] = [];
  let offset = 0;
  let line = 0;
  for (let end = bytes.indexOf(NEWLINE, offset); end !== -1; end = bytes.indexOf(NEWLINE, offset)) {
    line += 1;
    const where = `line ${line} (byte ${offset})`;
    const check = checkFrame(bytes, offset, end);
    if (check === 'damaged') throw new StoreFileError(path, `${where} does not match its checksum: the file was damaged or edited`);
    if (check === 'unframed' && (!unframedAllowed || header !== null)) throw new StoreFileError(path, `${where} has no checksum: the file was damaged or edited`);
    let value: Partial<JournalEntry & JournalHeader> | null;
    try {
      value = JSON.parse(bytes.toString('utf8', offset, end));
    } catch (error) {
      throw new StoreFileError(path, `${where} is not valid JSON (${(error as Error).message})`);
    }
    if (line === 1 && isHeader(value)) header = { journal: value.journal, after: value.after };
    else if (typeof value?.s === 'number' && Array.isArray(value.o)) entries.push({ entry: value as JournalEntry, line, byte: offset });
    else throw new StoreFileError(path, `${where} is not a journal entry`);
    offset = end + 1;
  }
  // A crash leaves a prefix of what one append wrote, and a line is always
  // followed by its newline in it: a whole line followed by anything else is a
  // damaged newline, and the acknowledged line it ends must not be dropped.
  if (bytes.length - offset > 1 && checkFrame(bytes, offset, bytes.length - 1) === 'ok') {
    throw new StoreFileError(path, `line ${line + 1} (byte ${offset}) is complete but the newline ending it at byte ${bytes.length - 1} is damaged`);
  }
  return { header, entries, validLength: offset };
}

function isHeader(value: unknown): value is JournalHeader {
  const v = value as Partial<JournalHeader> | null;
  return typeof v === 'object' && v !== null && !('s' in v) && Number.isSafeInteger(v.journal) && Number.isSafeInteger(v.after);
}

/**
 * The entries of `parsed` that come after the snapshot at `seq`, checking that
 * none is missing, repeated or out of order: sequence numbers go up by one from
 * the header's `after`, except for one step to `seq + 1` (a reset or import
 * advances the sequence with no line, and a snapshot may hold lines its journal
 * never flushed).
 */
export function entriesAfter(path: string, parsed: ParsedJournal, seq: number): JournalEntry[] {
  const out: JournalEntry[] = [];
  let previous = parsed.header?.after ?? null;
  for (const { entry, line, byte } of parsed.entries) {
    const expected = entry.s > seq && (previous === null || previous < seq) ? seq + 1 : previous === null ? entry.s : previous + 1;
    if (entry.s !== expected) {
      throw new StoreFileError(path, `line ${line} (byte ${byte}) holds change ${entry.s} where change ${expected} belongs: lines were removed, repeated or reordered`);
    }
    previous = entry.s;
    if (entry.s > seq) out.push(entry);
  }
  return out;
}
