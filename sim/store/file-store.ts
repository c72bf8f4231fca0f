import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Checkpointer } from './checkpoint.ts';
import { CheckpointSchedule } from './checkpoint-schedule.ts';
import type { Journal } from './journal.ts';
import { journalLine, type JournalOp } from './journal-format.ts';
import { CommittedRows } from './committed-rows.ts';
import { snapshotChunks, snapshotOf } from './snapshot-export.ts';
import { SnapshotShapeError, snapshotShapeSteps } from './snapshot-shape.ts';
import { StoreFileError } from './store-file-error.ts';
import { nodeStoreFs, type StoreFs } from './store-fs.ts';
import { StoreLock } from './store-lock.ts';
import { StoreMemory } from './store-memory.ts';
import { loadStore } from './store-load.ts';
import { StorePaths } from './store-paths.ts';
import type { CollectionMap, Row, Snapshot, StoreFigures, StoreHooks, StoreLayout, StoreOptions, Tx } from './store-types.ts';
import { StoreBusyError, StoreWriteError } from './store-write-error.ts';
import { Transaction } from './transaction.ts';
import { runInTurns } from './turns.ts';
import { UndoLog } from './undo-log.ts';

// What callers import from here (the store's one public face).
export { SnapshotShapeError, StoreBusyError, StoreFileError, StoreWriteError };
export type { CollectionMap, Row, Snapshot, StoreFigures, StoreFs, StoreHooks, StoreLayout, StoreOptions, Tx };

/**
 * The file store: a checksummed snapshot (`PATH`), a
 * checksummed append-only journal (`PATH.journal`) and an archive of cold rows
 * (`PATH.rows.N`), held by one process at a time (`PATH.lock`). Transactions
 * run synchronously against an overlay, so a refused transaction leaves memory
 * untouched; a committed one is applied to memory and appended to the journal,
 * and callers wait on `settled()` before answering. Checkpoints (checkpoint.ts)
 * run while serving. Open refuses (never rewrites) a store whose parts it cannot
 * read or that do not agree (store-open.ts).
 *
 * A write the disk refuses (full, failing) is taken back: every change whose
 * journal line did not reach the disk is undone in memory before anyone waiting
 * on it hears (undo-log.ts), so memory never holds what the files do not. A
 * checkpoint that cannot be written leaves the files it started from, which stay
 * valid. Nothing stays failed: the next write tries the disk again.
 */
export class FileStore<C extends CollectionMap> extends CommittedRows<C> {
  protected memory: StoreMemory;
  private journal!: Journal;
  private checkpointer!: Checkpointer;
  private readonly undo = new UndoLog();
  private readonly paths: StorePaths;
  private checkpointing: Promise<void> | null = null;
  private replacing = false;
  private readonly schedule: CheckpointSchedule;
  private hooks: StoreHooks<C> = {};
  private inTransaction = false;
  private volatile = new Map<string, () => unknown>();
  private lock!: StoreLock;
  private readonly fs: StoreFs;

  private constructor(readonly path: string, layout: StoreLayout, options: StoreOptions) {
    super(layout);
    [this.paths, this.schedule, this.fs] = [new StorePaths(path), new CheckpointSchedule(layout), options.fs ?? nodeStoreFs];
    this.memory = this.newMemory();
  }

  get journalPath(): string {
    return this.paths.journal;
  }

  /** Where the last acknowledged change is recorded (acknowledged-seq.ts). */
  get acknowledgedPath(): string {
    return this.paths.acknowledged;
  }

  /** Opens PATH, or creates it from `initial()` when neither file exists. */
  static async open<C extends CollectionMap>(path: string, initial: () => Snapshot, layout: StoreLayout = { archived: [], grouped: {} }, options: StoreOptions = {}): Promise<{ store: FileStore<C>; created: boolean }> {
    const store = new FileStore<C>(path, layout, options);
    await mkdir(dirname(path), { recursive: true });
    store.lock = await StoreLock.acquire(path);
    try {
      const created = await store.load(initial);
      return { store, created };
    } catch (error) {
      // A store refused after its archive was opened (its first checkpoint failed).
      await store.checkpointer?.archive?.close();
      await store.lock.release();
      throw error;
    }
  }

  setHooks(hooks: StoreHooks<C>): void {
    this.hooks = hooks;
  }

  /** Meta written only with the snapshot (checkpoint, close): state whose loss in a crash is harmless. */
  setVolatile(key: string, provider: () => unknown): void {
    this.volatile.set(key, provider);
  }

  /** Where the state is: rows in memory and in the archive, the journal's length, the archive's size. */
  figures(): StoreFigures {
    const archive = this.checkpointer.archive;
    return {
      ...this.memory.counts(),
      journalLines: this.journal.lines,
      archive: archive ? { file: basename(archive.path), bytes: archive.size, liveBytes: this.memory.liveArchiveBytes } : null,
      checkpointRunning: this.checkpointing !== null,
    };
  }

  /**
   * Runs `fn` as one transaction. On return, its writes are in memory and queued
   * for the journal; on throw, nothing changed. Not re-entrant.
   */
  transact<R>(fn: (tx: Tx<C>) => R): R {
    if (this.inTransaction) throw new Error('nested store transaction');
    this.inTransaction = true;
    try {
      const tx = new Transaction<C>(this);
      const result = fn(tx);
      this.hooks.beforeCommit?.(tx);
      const ops: JournalOp[] = [];
      for (const [collection, rows] of tx.overlay) for (const [id, row] of rows) ops.push([collection, id, row]);
      const metaOps = [...tx.metaOverlay];
      if (ops.length > 0 || metaOps.length > 0) {
        if (this.replacing) throw new StoreBusyError(this.path);
        this.apply(ops, metaOps);
      }
      return result;
    } finally {
      this.inTransaction = false;
    }
  }

  /** Whether every durable change applied so far is already on disk (settled() would resolve at once). */
  idle(): boolean {
    return this.journal.idle();
  }

  /** Settles once every change applied so far is on disk; rejects (StoreWriteError) when they were refused and taken back. */
  settled(): Promise<void> {
    return this.journal.settled();
  }

  async flush(): Promise<void> {
    await this.journal.settled();
  }

  /**
   * Folds the journal into the snapshot and the archive, and moves archived
   * collections' rows out of memory. Safe while serving: transactions go on
   * meanwhile and land in the journal that remains. One at a time.
   */
  async checkpoint(options: { rewriteArchive?: boolean } = {}): Promise<void> {
    while (this.checkpointing) await this.checkpointing.catch(() => undefined);
    const run = this.checkpointer.run(options.rewriteArchive === true);
    this.checkpointing = run;
    try {
      await run;
      this.schedule.succeeded(this.journal.lines);
    } catch (error) {
      // The files are those the checkpoint started from (each step is atomic, and
      // the checkpoint gave memory back what it had taken): valid, and serving goes on.
      this.schedule.failed(this.journal.lines);
      throw error instanceof StoreWriteError ? error : new StoreWriteError(this.path, error);
    } finally {
      this.checkpointing = null;
    }
  }

  /**
   * Writes what is queued, checkpoints and lets go of the files. A disk that
   * refuses the last writes does not stop it: what was acknowledged is in the
   * journal already (a refused line is taken back like any other), and a
   * checkpoint that cannot be written leaves the files it started from, which
   * open with all of it. What could not be written is returned, for the log.
   */
  async close(): Promise<StoreWriteError | null> {
    let problem: StoreWriteError | null = null;
    const note = (error: unknown) => {
      problem ??= error instanceof StoreWriteError ? error : new StoreWriteError(this.path, error);
    };
    await this.journal.settled().catch(note);
    await this.checkpoint().catch(note);
    await this.journal.close().catch(note);
    await this.checkpointer.archive?.close();
    await this.lock.release();
    return problem;
  }

  /**
   * Replaces the whole state (snapshot import, reset); durable on return unless
   * StoreFs.neverReopened. A malformed snapshot changes nothing. The new state is written
   * first while the old one answers reads (on disk already, they pass the durability gate),
   * then goes into service as it commits; writes meanwhile are refused (StoreBusyError), as
   * they would be lost with the state they were made against. `promoted` runs in the step
   * the new state goes into service, so what the caller keeps beside the store follows it.
   * Each pass over the rows lets other requests run every ROWS_PER_TURN rows (turns.ts).
   */
  async replaceAll(snapshot: Snapshot, promoted?: () => void): Promise<void> {
    const problem = await runInTurns(snapshotShapeSteps(snapshot));
    if (problem) throw new SnapshotShapeError(problem);
    while (this.checkpointing) await this.checkpointing.catch(() => undefined);
    // Held as the checkpoint in progress from here, so none starts while the new state is
    // filled and written (it would write the state in service between the passes' turns).
    this.replacing = true;
    const replacement = this.replaceWith(snapshot, promoted);
    this.checkpointing = replacement;
    try {
      await replacement;
    } catch (error) {
      // Not committed: the files and memory still hold the state before.
      throw error instanceof StoreWriteError ? error : new StoreWriteError(this.path, error);
    } finally {
      this.checkpointing = null;
      this.replacing = false;
    }
  }

  private async replaceWith(snapshot: Snapshot, promoted?: () => void): Promise<void> {
    const next = this.newMemory();
    // Writes are refused meanwhile, so the state in service keeps its seq.
    await runInTurns(next.fillSteps(snapshot.collections, snapshot.meta, this.memory.seq + 1));
    const promote = () => {
      this.memory = next;
      promoted?.();
    };
    // Files nothing reads back (a library's temporary store) are left for the next checkpoint to write.
    if (this.fs.neverReopened) return promote();
    while (!this.journal.idle()) await this.journal.settled();
    await this.checkpointer.run(true, { memory: next, meta: this.metaOf(next), promote });
  }

  /** Whether the whole state is being replaced: writes are refused, reads answer from the state before. */
  get isReplacing(): boolean {
    return this.replacing;
  }

  /** The text of `JSON.stringify(toSnapshot())` as chunks of bytes (snapshot-export.ts). */
  snapshotChunks(prefix = '', suffix = ''): Buffer[] {
    return snapshotChunks(this.memory, this.checkpointer.archive, this.metaToWrite(), prefix, suffix);
  }

  toSnapshot(): Snapshot {
    return snapshotOf(this.memory, this.metaToWrite());
  }

  private newMemory(): StoreMemory {
    return new StoreMemory(this.layout, () => this.checkpointer.archive, (collection, id, row) => this.hooks.afterCommit?.(collection, id, row));
  }

  private metaToWrite(): Record<string, unknown> {
    return this.metaOf(this.memory);
  }

  private metaOf(memory: StoreMemory): Record<string, unknown> {
    const meta = Object.fromEntries(memory.meta);
    for (const [key, provider] of this.volatile) meta[key] = provider();
    return meta;
  }

  private apply(ops: JournalOp[], metaOps: Array<[string, unknown]>): void {
    this.undo.apply(this.memory, ops, metaOps);
    // Every change of seq has its line: the journal's order is checked by seq (entriesAfter).
    const seq = this.memory.seq;
    const line = journalLine(metaOps.length > 0 ? { s: seq, o: ops, m: metaOps } : { s: seq, o: ops });
    // The returned promise is awaited through settled(); a failure is kept by the journal.
    this.journal.append(line).catch(() => undefined);
    const sizes = this.checkpointer;
    sizes.journalBytes += line.length;
    // A failed one is tried again later (CheckpointSchedule).
    if (!this.checkpointing && this.schedule.due(this.journal.lines, sizes.journalBytes, sizes.snapshotBytes)) this.checkpoint().catch(() => undefined);
  }

  private async load(initial: () => Snapshot): Promise<boolean> {
    const inputs = { memory: () => this.memory, journal: () => this.journal, undo: this.undo, meta: () => this.metaToWrite() };
    const loaded = await loadStore(this.paths, initial, this.fs, inputs);
    this.checkpointer = loaded.checkpointer;
    this.journal = loaded.journal;
    if (loaded.created) await this.checkpoint({ rewriteArchive: true });
    return loaded.created;
  }
}
