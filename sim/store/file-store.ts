import { readFile, readdir, stat, truncate as truncateFile, mkdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { FRAME_SUFFIX_LENGTH, checkFrame } from './checksum.ts';
import { DurableJsonFile, temporaryOf, writeFileDurably } from './durable-json-file.ts';
import { AcknowledgedSeq } from './acknowledged-seq.ts';
import { Journal, entriesAfter, journalHeader, journalLine, parseJournal, type JournalEntry, type JournalOp, type ParsedJournal } from './journal.ts';
import { RowArchive, pointerLength, type RowPointer } from './row-archive.ts';
import { StoreFileError } from './store-file-error.ts';
import { nodeStoreFs, type StoreFs } from './store-fs.ts';
import { StoreLock } from './store-lock.ts';
import { StoreWriteError } from './store-write-error.ts';
import { Transaction } from './transaction.ts';

export { StoreFileError, StoreWriteError };
export type { StoreFs };

export type Row = { readonly id: string };
export type CollectionMap = Record<string, Row>;

/** The whole state as one document: what snapshot export and import exchange, and a new store starts from. */
export interface Snapshot {
  format: 'understudy-store';
  version: 1;
  seq: number;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
}

/**
 * The snapshot file (`PATH`) of version 3, checksummed (sim/store/checksum.ts):
 * the state at `seq` except the rows of archived collections, which are in the
 * archive file it names (its first `length` bytes, whose checksum is `crc`);
 * `journal` is the generation of the journal that follows it. Versions 1
 * (every row inline) and 2 (no checksums) are still read, and converted at the
 * first checkpoint.
 */
interface SnapshotFile {
  format: 'understudy-store';
  version: 1 | 2 | 3;
  seq: number;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
  archive?: { file: string; length: number; crc?: string } | null;
  journal?: number;
}

type Op = JournalOp;
/** A row in memory, or where it is in the archive. */
type Slot = Row | RowPointer;

/**
 * How to take back one journal line's changes, kept until the line is on disk:
 * each row's slot before it (and its group, for an archived row), each meta
 * value before it, and the sequence number before it.
 */
interface Undo {
  seq: number;
  rows: Array<[collection: string, id: string, previous: Slot | undefined, group: string | undefined]>;
  meta: Array<[key: string, had: boolean, previous: unknown]>;
}

export interface Tx<C extends CollectionMap> {
  get<K extends keyof C & string>(collection: K, id: string): C[K] | undefined;
  put<K extends keyof C & string>(collection: K, row: C[K]): void;
  delete<K extends keyof C & string>(collection: K, id: string): void;
  all<K extends keyof C & string>(collection: K): C[K][];
  /** Rows of a grouped collection whose group field holds `key`, oldest first. */
  group<K extends keyof C & string>(collection: K, key: string): C[K][];
  getMeta<T>(key: string): T | undefined;
  setMeta(key: string, value: unknown): void;
  /** Rows of `collection` written in this transaction so far. */
  written<K extends keyof C & string>(collection: K): C[K][];
}

export interface StoreHooks<C extends CollectionMap> {
  /** Runs inside every transaction before it commits; throwing aborts it (invariant checks). */
  beforeCommit?: (tx: Tx<C>) => void;
  /** Sees every committed write (for in-memory indexes). */
  afterCommit?: (collection: string, id: string, row: Row | null) => void;
}

export interface StoreLayout {
  /**
   * Collections whose rows go to the archive at each checkpoint and are read back
   * on demand: ones looked up by id, never scanned whole while serving.
   */
  archived: readonly string[];
  /** Collections indexed for group() by the value of one field of their rows: collection → field. */
  grouped: Readonly<Record<string, string>>;
  /** Journal lines that start a checkpoint while serving (default 50,000). */
  checkpointAfterLines?: number;
  /**
   * Journal characters that start a checkpoint while serving, or the snapshot's
   * size when that is larger (default 2 MiB): the journal stays bounded however
   * slowly lines come, and a checkpoint never writes more than the journal grew.
   */
  checkpointAfterBytes?: number;
}

export interface StoreOptions {
  /** The files the store writes go through this (tests hand in a disk that fills up). */
  fs?: StoreFs;
}

/** The rows of a grouped collection whose group field holds `key`, by id, oldest first. */
interface Group {
  key: string;
  members: Set<string>;
}

/** A row's group: the text of its group field. */
const groupValue = (row: Row, field: string) => String((row as unknown as Record<string, unknown>)[field] ?? '');

export interface StoreFigures {
  residentRows: number;
  archivedRows: number;
  journalLines: number;
  archive: { file: string; bytes: number; liveBytes: number } | null;
  checkpointRunning: boolean;
}

const CHECKPOINT_AFTER_LINES = 50_000;
/** After a checkpoint that could not be written (a full disk), the next one starts this many journal lines later. */
const CHECKPOINT_RETRY_LINES = 1000;
const CHECKPOINT_AFTER_BYTES = 2 << 20;
/** An archive this much larger than its live rows is rewritten at the next checkpoint. */
const ARCHIVE_SLACK = 2;
const ARCHIVE_MIN_REWRITE_BYTES = 8 << 20;
const RECENTLY_READ_ROWS = 4096;
/** Characters per chunk of an exported snapshot. */
const EXPORT_CHUNK = 1 << 20;


/**
 * The file store: a lowdb snapshot (`PATH`), an append-only journal
 * (`PATH.journal`) and an archive of cold rows (`PATH.rows.N`), held by one
 * process at a time (`PATH.lock`). Transactions
 * run synchronously against an overlay, so a refused transaction leaves memory
 * untouched; a committed one is applied to memory and appended to the journal,
 * and callers wait on `settled()` before answering. A checkpoint moves the
 * archived collections' rows out of memory into the archive, writes the
 * snapshot, then cuts the journal down to what came after it; it runs while
 * serving. Load refuses (never rewrites) a file it cannot read.
 *
 * A write the disk refuses (full, failing) is taken back: every change whose
 * journal line did not reach the disk is undone in memory before anyone waiting
 * on it hears, so memory never holds what the files do not. A checkpoint that
 * cannot be written leaves the files it started from, which stay valid. Nothing
 * stays failed: the next write tries the disk again.
 */
export class FileStore<C extends CollectionMap> {
  private data = new Map<string, Map<string, Slot>>();
  /** Per grouped collection: group key → its group, and id → its row's group (one key string per group, however many rows). */
  private groups = new Map<string, Map<string, Group>>();
  private memberOf = new Map<string, Map<string, Group>>();
  private meta = new Map<string, unknown>();
  private seq = 0;
  private journal!: Journal;
  private low!: Low<SnapshotFile>;
  private archive: RowArchive | null = null;
  private generation = 0;
  /** The generation of the journal on disk; the next checkpoint starts the next one. */
  private journalGeneration = 0;
  /** Bytes of the archive that current pointers refer to (the rest is superseded). */
  private liveArchiveBytes = 0;
  /** Archived collections' rows deleted since the last checkpoint: their tombstones are due. */
  private tombstones: Array<[string, string]> = [];
  private checkpointing: Promise<void> | null = null;
  /** Journal lines at which the next checkpoint starts by itself. */
  private checkpointAt: number;
  /** One per journal line not yet on disk, oldest first. */
  private undo: Undo[] = [];
  /**
   * Archived rows read lately, by pointer (least recently read first): a row read
   * again is the very same object, so answers cached per row (sim/http/answer-cache.ts)
   * stay valid, and reading a run's events again costs no disk read.
   */
  private recentlyRead = new Map<RowPointer, Row>();
  private hooks: StoreHooks<C> = {};
  private inTransaction = false;
  private volatile = new Map<string, () => unknown>();
  private lock!: StoreLock;
  private readonly archived: ReadonlySet<string>;
  private readonly groupFields: ReadonlyMap<string, string>;
  private readonly checkpointAfterLines: number;
  private readonly fs: StoreFs;
  private readonly checkpointAfterBytes: number;
  /** Characters in the journal file and bytes of the last snapshot written (or read): what checkpointAfterBytes compares. */
  private journalBytes = 0;
  private snapshotBytes = 0;
  /** After a failed checkpoint, the size trigger waits for the retry too (a full disk would refuse one per write). */
  private sizeTriggerFromLine = 0;

  private constructor(readonly path: string, layout: StoreLayout, options: StoreOptions) {
    this.archived = new Set(layout.archived);
    this.groupFields = new Map(Object.entries(layout.grouped));
    this.checkpointAfterLines = layout.checkpointAfterLines ?? CHECKPOINT_AFTER_LINES;
    this.checkpointAt = this.checkpointAfterLines;
    this.fs = options.fs ?? nodeStoreFs;
    this.checkpointAfterBytes = layout.checkpointAfterBytes ?? CHECKPOINT_AFTER_BYTES;
  }

  get journalPath(): string {
    return `${this.path}.journal`;
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
      // A refused archive was opened to be checked.
      await store.archive?.close();
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

  get<K extends keyof C & string>(collection: K, id: string): C[K] | undefined {
    return this.resolve(this.data.get(collection)?.get(id)) as C[K] | undefined;
  }

  all<K extends keyof C & string>(collection: K): C[K][] {
    const rows = this.data.get(collection);
    if (!rows) return [];
    const out: Row[] = [];
    for (const slot of rows.values()) out.push(this.resolve(slot)!);
    return out as C[K][];
  }

  group<K extends keyof C & string>(collection: K, key: string): C[K][] {
    return [...this.groupIdsOf(collection, key)].map((id) => this.get(collection, id)!);
  }

  count(collection: keyof C & string): number {
    return this.data.get(collection)?.size ?? 0;
  }

  getMeta<T>(key: string): T | undefined {
    return this.meta.get(key) as T | undefined;
  }

  /** Where the state is: rows in memory and in the archive, the journal's length, the archive's size. */
  figures(): StoreFigures {
    let residentRows = 0;
    let archivedRows = 0;
    for (const rows of this.data.values()) {
      for (const slot of rows.values()) {
        if (typeof slot === 'number') archivedRows += 1;
        else residentRows += 1;
      }
    }
    return {
      residentRows,
      archivedRows,
      journalLines: this.journal.lines,
      archive: this.archive ? { file: basename(this.archive.path), bytes: this.archive.size, liveBytes: this.liveArchiveBytes } : null,
      checkpointRunning: this.checkpointing !== null,
    };
  }

  private resolve(slot: Slot | undefined): Row | undefined {
    if (typeof slot !== 'number') return slot;
    let row = this.recentlyRead.get(slot);
    if (row) {
      this.recentlyRead.delete(slot);
    } else {
      row = this.archive!.read(slot) as Row;
      if (this.recentlyRead.size >= RECENTLY_READ_ROWS) this.recentlyRead.delete(this.recentlyRead.keys().next().value as number);
    }
    this.recentlyRead.set(slot, row);
    return row;
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
      const ops: Op[] = [];
      for (const [collection, rows] of tx.overlay) for (const [id, row] of rows) ops.push([collection, id, row]);
      const metaOps = [...tx.metaOverlay];
      if (ops.length > 0 || metaOps.length > 0) this.apply(ops, metaOps, true);
      return result;
    } finally {
      this.inTransaction = false;
    }
  }

  /** Ids of a collection, oldest first, without copying them (reading archived rows one by one is cheaper than all()). */
  idsOf(collection: string): Iterable<string> {
    return this.data.get(collection)?.keys() ?? [];
  }

  /** For transactions (CommittedState): the group a row belongs to, or null for a collection without groups. */
  groupOf(collection: string, row: Row): string | null {
    const field = this.groupFields.get(collection);
    return field === undefined ? null : groupValue(row, field);
  }

  /** Ids in one group of a grouped collection, oldest first, without copying them. */
  groupIdsOf(collection: string, key: string): Iterable<string> {
    return this.groups.get(collection)?.get(key)?.members ?? [];
  }

  /** Writes that need not be waited for (request log, usage counters): journaled lazily. */
  record(ops: Op[], metaOps: Array<[string, unknown]> = []): void {
    this.apply(ops, metaOps, false);
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
    await this.journal.flushAll();
  }

  /**
   * Folds the journal into the snapshot and the archive, and moves archived
   * collections' rows out of memory. Safe while serving: transactions go on
   * meanwhile and land in the journal that remains. One at a time.
   */
  async checkpoint(options: { rewriteArchive?: boolean } = {}): Promise<void> {
    while (this.checkpointing) await this.checkpointing.catch(() => undefined);
    const run = this.runCheckpoint(options.rewriteArchive === true, false);
    this.checkpointing = run;
    try {
      await run;
      this.checkpointAt = this.journal.lines + this.checkpointAfterLines;
      this.sizeTriggerFromLine = 0;
    } catch (error) {
      // The files are those the checkpoint started from (each step is atomic, and
      // runCheckpoint gave memory back what it had taken): valid, and serving goes on.
      this.checkpointAt = this.journal.lines + Math.min(CHECKPOINT_RETRY_LINES, this.checkpointAfterLines);
      this.sizeTriggerFromLine = this.checkpointAt;
      throw error instanceof StoreWriteError ? error : new StoreWriteError(this.path, error);
    } finally {
      this.checkpointing = null;
    }
  }

  /** `held`: the journal is held (replaceAll), so nothing from before the capture is waiting to be written. */
  private async runCheckpoint(forceRewrite: boolean, held: boolean): Promise<void> {
    // Captured in one synchronous step: the state at `seq`.
    const seq = this.seq;
    const meta = Object.fromEntries(this.meta);
    for (const [key, provider] of this.volatile) meta[key] = provider();
    const inline: SnapshotFile['collections'] = {};
    // An archive from before checksums is rewritten whole, with them.
    const rewrite = forceRewrite || this.archive === null || !this.archive.framed || (this.archive.size > ARCHIVE_SLACK * this.liveArchiveBytes && this.archive.size > ARCHIVE_MIN_REWRITE_BYTES);
    const moved: Array<{ collection: string; id: string; slot: Slot; group: string | undefined; text: string | null }> = [];
    for (const [name, rows] of this.data) {
      if (!this.archived.has(name)) {
        inline[name] = Object.fromEntries(rows as Map<string, Row>);
        continue;
      }
      // Named even when empty, so the set of collections survives a reopen.
      inline[name] = {};
      for (const [id, slot] of rows) {
        const group = this.memberOf.get(name)?.get(id)?.key;
        if (typeof slot !== 'number') moved.push({ collection: name, id, slot, group, text: JSON.stringify(slot) });
        else if (rewrite) moved.push({ collection: name, id, slot, group, text: null });
      }
    }
    const pendingTombstones = this.tombstones;
    // A tombstone whose row is archived again was taken back with the delete that made it (see rollBack).
    const tombstones = rewrite ? [] : pendingTombstones.filter(([collection, id]) => typeof this.data.get(collection)?.get(id) !== 'number');
    this.tombstones = [];
    const journalGeneration = this.journalGeneration + 1;
    this.journal.markRotation();
    // The snapshot may only hold what the journal holds: the lines of the state
    // captured above must be on disk (or refused, and this checkpoint with them)
    // before the snapshot commits it.
    const captured = held ? Promise.resolve() : this.journal.flushAll();
    // Awaited below, after the archive's append; a refusal meanwhile is not unhandled.
    captured.catch(() => undefined);
    const previous = this.archive;
    const committedLength = previous?.size ?? 0;
    let archive: RowArchive | null = null;
    let committed = false;
    const journalBytesAtMark = this.journalBytes;
    try {
      const generation = rewrite ? this.generation + 1 : this.generation;
      archive = rewrite ? await RowArchive.create(this.archivePath(generation), this.fs) : previous!;
      // Tombstones first: a row deleted and written again since the last checkpoint is in `moved`.
      const entries = function* () {
        for (const [collection, id] of tombstones) yield { collection, id, rowText: null };
        for (const m of moved) yield { collection: m.collection, id: m.id, group: m.group, rowText: m.text ?? previous!.rowText(m.slot as RowPointer) };
      };
      const pointers = (await archive.append(entries())).slice(tombstones.length);
      // Rows too long to point at stay inline in the snapshot (and in memory).
      moved.forEach((m, i) => {
        if (pointers[i] === null) (inline[m.collection] ??= {})[m.id] = this.resolve(m.slot)!;
      });
      await captured;
      await this.writeSnapshot({ format: 'understudy-store', version: 3, seq, meta, collections: inline, archive: { file: basename(archive.path), length: archive.size, crc: archive.checksum }, journal: journalGeneration });
      committed = true;
      // Committed: point at the archived rows that nobody rewrote meanwhile.
      const relocated = new Map<RowPointer, Slot>();
      moved.forEach((m, i) => {
        if (rewrite && typeof m.slot === 'number') relocated.set(m.slot, pointers[i] ?? inline[m.collection][m.id]);
        const pointer = pointers[i];
        const rows = this.data.get(m.collection)!;
        if (pointer === null || rows.get(m.id) !== m.slot) return;
        if (typeof m.slot === 'number') this.liveArchiveBytes -= pointerLength(m.slot);
        rows.set(m.id, pointer);
        this.liveArchiveBytes += pointerLength(pointer);
      });
      if (rewrite) {
        this.archive = archive;
        this.generation = generation;
        // Pointers are positions in one generation's file: the next one reuses the numbers.
        this.recentlyRead.clear();
        // Lines written since the capture, not yet on disk, may have to give back rows of the old generation.
        for (const undo of this.undo) {
          for (const entry of undo.rows) if (typeof entry[2] === 'number') entry[2] = relocated.get(entry[2]) ?? entry[2];
        }
      }
    } catch (error) {
      this.journal.dropMark();
      if (!committed) {
        // The old snapshot still names the old archive and length: bytes appended
        // past it are forgotten (the next append writes over them, an open cuts them
        // off), a new generation is removed, and the tombstones are due again.
        if (archive === previous) previous?.abandon(committedLength);
        else if (archive) await this.dropArchive(archive);
        this.tombstones = [...pendingTombstones, ...this.tombstones];
      }
      throw error;
    }
    // What follows the commit only gives space back: a previous generation left
    // behind is removed at the next open (removeStrayArchives), and a journal that
    // could not be rotated stays in use whole (its lines up to `seq` are skipped at
    // open). Neither makes the committed checkpoint untrue, so neither fails it.
    if (rewrite && previous) await this.dropArchive(previous);
    // A rotation rewrites every line since the capture to free the ones before it.
    // When a burst of writes ran meanwhile (a fast-forward: the checkpoint's own
    // writes wait for the event loop while the jobs run), it would write more than
    // it frees, and the whole burst a second time: the journal then stays whole,
    // as after a failed rotation, and the size trigger starts the next checkpoint,
    // whose capture comes after the burst. A rotation is skipped only when the
    // journal more than doubled while the checkpoint ran.
    const worthRotating = this.journalBytes - journalBytesAtMark <= journalBytesAtMark;
    if (!worthRotating) this.journal.dropMark();
    const rotated =
      worthRotating &&
      (await this.journal.rotate(journalHeader(journalGeneration, seq)).then(
        () => true,
        () => false,
      ));
    if (rotated) {
      this.journalGeneration = journalGeneration;
      this.journalBytes -= journalBytesAtMark;
    }
    // After the rotation, so that the journal kept is no longer than before; a failed look keeps the last size.
    this.snapshotBytes = await stat(this.path).then((st) => st.size, () => this.snapshotBytes);
  }

  /** An archive generation no snapshot names any more: closed and removed (it gives back its space). */
  private async dropArchive(archive: RowArchive): Promise<void> {
    await archive.close().catch(() => undefined);
    await RowArchive.remove(archive.path).catch(() => undefined);
  }

  private archivePath(generation: number): string {
    return `${this.path}.rows.${generation}`;
  }

  private async writeSnapshot(file: SnapshotFile): Promise<void> {
    this.low.data = file;
    try {
      await this.low.write();
    } finally {
      // The document is only needed while being written.
      this.low.data = null as never;
    }
  }

  /**
   * Writes what is queued, checkpoints and lets go of the files. A disk that
   * refuses the last writes does not stop it: what was acknowledged is in the
   * journal already (a refused lazy line is taken back like any other), and a
   * checkpoint that cannot be written leaves the files it started from, which
   * open with all of it. What could not be written is returned, for the log.
   */
  async close(): Promise<StoreWriteError | null> {
    let problem: StoreWriteError | null = null;
    const note = (error: unknown) => {
      problem ??= error instanceof StoreWriteError ? error : new StoreWriteError(this.path, error);
    };
    await this.journal.flushAll().catch(note);
    await this.checkpoint().catch(note);
    await this.journal.close().catch(note);
    await this.archive?.close();
    await this.lock.release();
    return problem;
  }

  /** Replaces the whole state (snapshot import, reset); durable on return. A malformed snapshot changes nothing. */
  async replaceAll(snapshot: Snapshot): Promise<void> {
    const problem = snapshotShapeProblem(snapshot);
    if (problem) throw new SnapshotShapeError(problem);
    while (this.checkpointing) await this.checkpointing.catch(() => undefined);
    // The replaced state must be wholly on disk (nothing of it left to be refused),
    // and what is written against the new one waits (held) until the new one is.
    while (!this.journal.drained()) await this.journal.flushAll();
    this.journal.hold();
    const before = { data: this.data, groups: this.groups, memberOf: this.memberOf, meta: this.meta, seq: this.seq, tombstones: this.tombstones, liveArchiveBytes: this.liveArchiveBytes };
    this.data = new Map();
    this.groups = new Map();
    this.memberOf = new Map();
    this.recentlyRead.clear();
    this.tombstones = [];
    this.liveArchiveBytes = 0;
    this.fill(snapshot.collections, snapshot.meta, this.seq + 1);
    const run = this.runCheckpoint(true, true);
    this.checkpointing = run;
    try {
      await run;
    } catch (error) {
      // The files still hold the state before: so does memory again, after the
      // writes made against the new state meanwhile are taken back.
      this.journal.refuseHeld(error);
      Object.assign(this, before);
      this.recentlyRead.clear();
      throw error instanceof StoreWriteError ? error : new StoreWriteError(this.path, error);
    } finally {
      this.checkpointing = null;
      // rotate() released the hold when it ran; a checkpoint that stopped before it did not.
      this.journal.release();
    }
  }

  /**
   * The text of `JSON.stringify(toSnapshot())`, built without parsing archived rows
   * (their archived text is their JSON) and handed out as chunks of bytes, so that
   * exporting a large store needs about its size in memory rather than several
   * times that in objects. Built in one synchronous pass: one consistent state.
   */
  snapshotChunks(prefix = '', suffix = ''): Buffer[] {
    const chunks: Buffer[] = [];
    let parts: string[] = [];
    let pending = 0;
    const push = (text: string) => {
      parts.push(text);
      pending += text.length;
      if (pending < EXPORT_CHUNK) return;
      chunks.push(Buffer.from(parts.join('')));
      parts = [];
      pending = 0;
    };
    const meta = Object.fromEntries(this.meta);
    for (const [key, provider] of this.volatile) meta[key] = provider();
    push(`${prefix}{"format":"understudy-store","version":1,"seq":${this.seq},"meta":${JSON.stringify(meta)},"collections":{`);
    let collectionSeparator = '';
    for (const [name, rows] of this.data) {
      push(`${collectionSeparator}${JSON.stringify(name)}:{`);
      collectionSeparator = ',';
      let rowSeparator = '';
      for (const [id, slot] of rows) {
        push(`${rowSeparator}${JSON.stringify(id)}:${typeof slot === 'number' ? this.archive!.rowText(slot) : JSON.stringify(slot)}`);
        rowSeparator = ',';
      }
      push('}');
    }
    push(`}}${suffix}`);
    chunks.push(Buffer.from(parts.join('')));
    return chunks;
  }

  toSnapshot(): Snapshot {
    const collections: Snapshot['collections'] = {};
    for (const name of this.data.keys()) collections[name] = Object.fromEntries(this.all(name).map((row) => [row.id, row]));
    const meta = Object.fromEntries(this.meta);
    for (const [key, provider] of this.volatile) meta[key] = provider();
    return { format: 'understudy-store', version: 1, seq: this.seq, meta, collections };
  }

  private apply(ops: Op[], metaOps: Array<[string, unknown]>, durable: boolean): void {
    const undo: Undo = { seq: this.seq, rows: [], meta: [] };
    this.seq += 1;
    for (const [collection, id, row] of ops) {
      const previous = this.data.get(collection)?.get(id);
      undo.rows.push([collection, id, previous, typeof previous === 'number' ? this.memberOf.get(collection)?.get(id)?.key : undefined]);
      this.applyOp(collection, id, row);
    }
    for (const [key, value] of metaOps) {
      undo.meta.push([key, this.meta.has(key), this.meta.get(key)]);
      this.meta.set(key, value);
    }
    this.undo.push(undo);
    // Every change of seq has its line: the journal's order is checked by seq (entriesAfter).
    const line = journalLine(metaOps.length > 0 ? { s: this.seq, o: ops, m: metaOps } : { s: this.seq, o: ops });
    if (durable) {
      // The returned promise is awaited through settled(); a failure is kept by the journal.
      this.journal.append(line).catch(() => undefined);
    } else this.journal.appendLazily(line);
    this.journalBytes += line.length;
    const journalFull = this.journal.lines >= this.checkpointAt || (this.journal.lines >= this.sizeTriggerFromLine && this.journalBytes >= Math.max(this.checkpointAfterBytes, this.snapshotBytes));
    if (journalFull && !this.checkpointing) {
      // A failed one is tried again CHECKPOINT_RETRY_LINES later (see checkpoint()).
      this.checkpoint().catch(() => undefined);
    }
  }

  /**
   * The journal refused its last `count` lines (every line not on disk): their
   * changes are undone, newest first, so memory holds what the files hold. The
   * hooks see each row go back, as they saw it change.
   */
  private rollBack(count: number): void {
    const undone = this.undo.splice(this.undo.length - count, count);
    for (let i = undone.length - 1; i >= 0; i -= 1) {
      const { seq, rows, meta } = undone[i];
      for (const [key, had, previous] of meta) {
        if (had) this.meta.set(key, previous);
        else this.meta.delete(key);
      }
      for (let j = rows.length - 1; j >= 0; j -= 1) {
        const [collection, id, previous, group] = rows[j];
        this.setSlot(collection, id, previous ?? null, group);
        this.hooks.afterCommit?.(collection, id, previous === undefined ? null : this.resolve(previous)!);
      }
      this.seq = seq;
    }
  }

  private applyOp(collection: string, id: string, row: Row | null): void {
    this.setSlot(collection, id, row);
    if (row === null && this.archived.has(collection)) this.tombstones.push([collection, id]);
    this.hooks.afterCommit?.(collection, id, row);
  }

  private setSlot(collection: string, id: string, slot: Slot | null, group?: string | null): void {
    let rows = this.data.get(collection);
    if (!rows) this.data.set(collection, (rows = new Map()));
    const previous = rows.get(id);
    if (typeof previous === 'number') this.liveArchiveBytes -= pointerLength(previous);
    if (typeof slot === 'number') this.liveArchiveBytes += pointerLength(slot);
    if (slot !== null) rows.set(id, slot);
    else rows.delete(id);
    const field = this.groupFields.get(collection);
    if (field !== undefined) this.regroup(collection, id, slot === null ? null : typeof slot === 'number' ? group : groupValue(slot, field));
  }

  /** Moves `id` to the group `key` (null: out of every group); an archived row read back by the scan keeps the group its line names. */
  private regroup(collection: string, id: string, key: string | null | undefined): void {
    let groups = this.groups.get(collection);
    if (!groups) this.groups.set(collection, (groups = new Map()));
    let memberOf = this.memberOf.get(collection);
    if (!memberOf) this.memberOf.set(collection, (memberOf = new Map()));
    const previous = memberOf.get(id);
    const next = key === undefined ? (previous?.key ?? null) : key;
    if (previous && previous.key !== next) {
      previous.members.delete(id);
      if (previous.members.size === 0) groups.delete(previous.key);
    }
    if (next === null) {
      memberOf.delete(id);
      return;
    }
    let group = groups.get(next);
    if (!group) groups.set(next, (group = { key: next, members: new Set() }));
    group.members.add(id);
    memberOf.set(id, group);
  }

  private fill(collections: Record<string, Record<string, Row>>, meta: Record<string, unknown>, seq: number): void {
    this.meta = new Map(Object.entries(meta));
    for (const [name, rows] of Object.entries(collections)) {
      if (!this.data.has(name)) this.data.set(name, new Map());
      for (const [id, row] of Object.entries(rows)) this.setSlot(name, id, Object.freeze(row));
    }
    this.seq = seq;
  }

  private async load(initial: () => Snapshot): Promise<boolean> {
    const adapter = new DurableJsonFile<SnapshotFile>(this.path, (bytes) => parseSnapshot(this.path, bytes), this.fs);
    this.low = new Low<SnapshotFile>(adapter, null as never);
    // The whole store is read and checked before any file is changed: a store refused is left exactly as found.
    const stored = await adapter.read();
    const legacy = stored !== null && stored.version < 3;
    const journalBytes = await readJournal(this.journalPath);
    const journal = journalBytes === null ? null : parseJournal(this.journalPath, journalBytes, stored === null || legacy);
    const archives = await this.archiveFiles();
    if (stored === null) this.refuseLeftovers(journal, journalBytes, archives);
    const file: SnapshotFile = stored ?? initial();
    const { entries, current } = stored === null ? { entries: [], current: false } : this.journalAfter(stored, journal);
    await this.refuseUnacknowledgedEnd(stored === null ? null : entries.length > 0 ? entries[entries.length - 1].s : file.seq);
    // Collections in the snapshot's order, archived ones included, whatever order the archive names them in.
    for (const name of Object.keys(file.collections)) this.data.set(name, new Map());
    if (file.archive) await this.openArchive(file.archive, legacy);

    // Checked: now what the snapshot proves was never committed goes, with the
    // temporary files of writes a crash cut short.
    await this.removeTemporaries();
    await this.archive?.cutUncommittedTail();
    for (const name of archives) if (name !== (file.archive?.file ?? null)) await RowArchive.remove(join(dirname(this.path), name));
    this.journalGeneration = stored === null || legacy ? 0 : stored.journal!;
    if (current) {
      // A torn last line was never acknowledged (answers wait for the flush), so it is cut off.
      if (journal!.validLength < journalBytes!.length) await truncateFile(this.journalPath, journal!.validLength);
    } else {
      // A new store, one from before checksums, or a checkpoint stopped between its snapshot and its journal: the
      // journal is written whole as the one the snapshot expects, so it is never one whose emptying would go unseen.
      await writeFileDurably(this.journalPath, journalHeader(this.journalGeneration, file.seq) + entries.map((e) => journalLine(e.m ? { s: e.s, o: e.o, m: e.m } : { s: e.s, o: e.o })).join(''), this.fs);
    }

    this.fill(file.collections, file.meta, file.seq);
    for (const entry of entries) {
      this.seq = entry.s;
      for (const [c, id, row] of entry.o) this.applyOp(c, id, row ? Object.freeze(row) : null);
      for (const [k, v] of entry.m ?? []) this.meta.set(k, v);
    }
    const acknowledged = await AcknowledgedSeq.open(this.acknowledgedPath, this.fs);
    this.journal = await Journal.open(this.journalPath, entries.length, { durable: (count) => void this.undo.splice(0, count), refused: (count) => this.rollBack(count) }, this.fs, acknowledged);
    // What the size trigger of checkpoints compares (see apply()).
    this.journalBytes = (await stat(this.journalPath)).size;
    if (stored !== null) this.snapshotBytes = (await stat(this.path)).size;
    if (stored === null) {
      await this.checkpoint({ rewriteArchive: true });
      return true;
    }
    return false;
  }

  /** Where the last acknowledged change is recorded (acknowledged-seq.ts). */
  get acknowledgedPath(): string {
    return `${this.path}.acknowledged`;
  }

  /**
   * Refuses a store whose files end before the last change that was acknowledged:
   * `reached` is the last change they hold (null: no snapshot, so none).
   */
  private async refuseUnacknowledgedEnd(reached: number | null): Promise<void> {
    const acknowledged = await AcknowledgedSeq.read(this.acknowledgedPath);
    if (acknowledged === null || (reached !== null && reached >= acknowledged)) return;
    const witness = basename(this.acknowledgedPath);
    if (reached === null) throw new StoreFileError(this.path, `it is missing, but ${witness} records change ${acknowledged} as acknowledged`);
    throw new StoreFileError(this.journalPath, `it ends at change ${reached}, but ${witness} records change ${acknowledged} as acknowledged: acknowledged changes were cut off`);
  }

  /**
   * The journal's entries after the snapshot `file`, checked against it; `current`
   * when the journal on disk is the one the snapshot names (else it is rewritten).
   */
  private journalAfter(file: SnapshotFile, journal: ParsedJournal | null): { entries: JournalEntry[]; current: boolean } {
    const snapshot = basename(this.path);
    if (file.version < 3) {
      // From before checksums: a journal with no header, or one this build wrote (generation 0) before converting the store.
      if (journal === null || journal.header === null) return { entries: journal ? entriesAfter(this.journalPath, journal, file.seq) : [], current: false };
      if (journal.header.journal === 0 && journal.header.after === file.seq) return { entries: entriesAfter(this.journalPath, journal, file.seq), current: true };
    } else {
      const expected = file.journal!;
      if (journal === null) throw new StoreFileError(this.journalPath, `it is missing, but the snapshot ${snapshot} expects journal ${expected} to follow it: its changes would be lost`);
      if (journal.header === null) throw new StoreFileError(this.journalPath, `line 1 (byte 0) is not the header naming the snapshot the journal follows (the file was emptied, cut or replaced): the snapshot ${snapshot} expects journal ${expected}`);
      const { journal: generation, after } = journal.header;
      if (generation === expected && after === file.seq) return { entries: entriesAfter(this.journalPath, journal, file.seq), current: true };
      // A checkpoint stopped after writing the snapshot, before starting the next journal.
      if (generation === expected - 1 && after <= file.seq) return { entries: entriesAfter(this.journalPath, journal, file.seq), current: false };
    }
    const header = journal.header!;
    throw new StoreFileError(
      this.journalPath,
      `its header (line 1) names journal ${header.journal} following change ${header.after}, but the snapshot ${snapshot} (change ${file.seq}) expects ${file.version < 3 ? 'none' : `journal ${file.journal}`}: the two do not belong together`,
    );
  }

  /**
   * With no snapshot, a new store is started only where nothing would be lost:
   * no journal with changes and no archive, unless they are what a store being
   * created left (a journal of generation 0 with no entries).
   */
  private refuseLeftovers(journal: ParsedJournal | null, journalBytes: Buffer | null, archives: string[]): void {
    const creationStopped = journal?.header?.journal === 0 && journal.entries.length === 0;
    if (creationStopped) return;
    const parts = [...(journalBytes !== null && journalBytes.length > 0 ? [this.journalPath] : []), ...archives.map((name) => join(dirname(this.path), name))];
    if (parts.length > 0) {
      throw new StoreFileError(this.path, `it is missing, but ${parts.join(' and ')} ${parts.length > 1 ? 'hold' : 'holds'} a store's data: restore the snapshot, or move ${parts.length > 1 ? 'them' : 'it'} away to start a new store`);
    }
  }

  private async openArchive(named: NonNullable<SnapshotFile['archive']>, legacy: boolean): Promise<void> {
    const match = /\.rows\.(\d+)$/.exec(named.file);
    if (!match || named.file !== basename(this.archivePath(Number(match[1])))) {
      throw new StoreFileError(this.path, `its archive ${JSON.stringify(named.file)} is not one of this store's archive files`);
    }
    this.generation = Number(match[1]);
    this.archive = await RowArchive.open(this.archivePath(this.generation), named.length, legacy ? null : named.crc!, this.fs);
    this.archive?.scan((collection, id, pointer, group) => this.setSlot(collection, id, pointer, group));
  }

  /**
   * The temporary files of a snapshot or journal rotation that a crash cut short
   * (the rename that would have committed them never ran): never part of the store.
   */
  private async removeTemporaries(): Promise<void> {
    for (const temporary of [temporaryOf(this.path), temporaryOf(this.journalPath)]) {
      await unlink(temporary).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw new StoreFileError(temporary, `it is a leftover of an interrupted write and could not be removed (${error.message})`);
      });
    }
  }

  /** Names of this store's archive files (`PATH.rows.N`) in its directory. */
  private async archiveFiles(): Promise<string[]> {
    const prefix = `${basename(this.path)}.rows.`;
    return (await readdir(dirname(this.path))).filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)));
  }
}

/** A snapshot handed to replaceAll that the store cannot hold (checked before anything changes). */
export class SnapshotShapeError extends Error {
  constructor(readonly problem: string) {
    super(`The snapshot cannot be loaded: ${problem}.`);
    this.name = 'SnapshotShapeError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why `snapshot` does not have the store's shape (meta, collections of rows keyed by their id), or null. */
function snapshotShapeProblem(snapshot: Snapshot): string | null {
  if (!isPlainObject(snapshot)) return 'it is not an object';
  if (!isPlainObject(snapshot.meta)) return "'meta' must be an object";
  if (!isPlainObject(snapshot.collections)) return "'collections' must be an object";
  for (const [name, rows] of Object.entries(snapshot.collections)) {
    if (!isPlainObject(rows)) return `'collections.${name}' must be an object of rows`;
    for (const [id, row] of Object.entries(rows)) {
      if (!isPlainObject(row) || row.id !== id) return `'collections.${name}.${id}' must be an object whose id is its key`;
    }
  }
  return null;
}

async function readJournal(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, (error as Error).message);
  }
}

function parseSnapshot(path: string, bytes: Buffer): SnapshotFile {
  const check = checkFrame(bytes, 0, bytes.length);
  if (check === 'damaged') throw new StoreFileError(path, `it does not match its checksum (at byte ${bytes.length - FRAME_SUFFIX_LENGTH}): the file was damaged or edited`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new StoreFileError(path, `it is not valid JSON (${(error as Error).message})`);
  }
  const s = value as Partial<SnapshotFile>;
  if (!s || typeof s !== 'object' || s.format !== 'understudy-store') throw new StoreFileError(path, 'it is not an understudy store (no "format": "understudy-store")');
  if (s.version !== 1 && s.version !== 2 && s.version !== 3) throw new StoreFileError(path, `its version ${JSON.stringify(s.version)} is not one this build reads (1, 2 or 3)`);
  if (s.version === 3 && check !== 'ok') throw new StoreFileError(path, 'it has no checksum at its end: the file was damaged or edited');
  if (typeof s.seq !== 'number' || !s.meta || typeof s.meta !== 'object' || !s.collections || typeof s.collections !== 'object') {
    throw new StoreFileError(path, 'its "seq", "meta" or "collections" field is missing or of the wrong type');
  }
  const archive = s.archive as { file?: unknown; length?: unknown; crc?: unknown } | null | undefined;
  if (archive != null && (typeof archive.file !== 'string' || !Number.isSafeInteger(archive.length) || (archive.length as number) < 0 || (s.version === 3 && !/^[0-9a-f]{8}$/.test(String(archive.crc))))) {
    throw new StoreFileError(path, 'its "archive" field must name a file, a length and (version 3) a checksum');
  }
  if (s.version === 3 && !(Number.isSafeInteger(s.journal) && (s.journal as number) > 0)) throw new StoreFileError(path, 'its "journal" field must be the generation of the journal that follows it');
  return s as SnapshotFile;
}
