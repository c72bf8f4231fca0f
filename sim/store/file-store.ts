import { readFile, readdir, stat, truncate as truncateFile, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { DurableJsonFile } from './durable-json-file.ts';
import { Journal } from './journal.ts';
import { RowArchive, pointerLength, type RowPointer } from './row-archive.ts';
import { StoreFileError } from './store-file-error.ts';
import { StoreLock } from './store-lock.ts';
import { Transaction } from './transaction.ts';

export { StoreFileError };

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
 * The snapshot file (`PATH`) of version 2: the state at `seq` except the rows
 * of archived collections, which are in the archive file it names (its first
 * `length` bytes). Version 1 files (every row inline) are still read.
 */
interface SnapshotFile {
  format: 'understudy-store';
  version: 1 | 2;
  seq: number;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
  archive?: { file: string; length: number } | null;
}

type Op = [collection: string, id: string, row: Row | null];
/** A row in memory, or where it is in the archive. */
type Slot = Row | RowPointer;

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
  /** Bytes of the archive that current pointers refer to (the rest is superseded). */
  private liveArchiveBytes = 0;
  /** Archived collections' rows deleted since the last checkpoint: their tombstones are due. */
  private tombstones: Array<[string, string]> = [];
  private checkpointing: Promise<void> | null = null;
  /**
   * Archived rows read lately, by pointer (least recently read first): a row read
   * again is the very same object, so answers cached per row (sim/http/answer-cache.ts)
   * stay valid, and reading a run's events again costs no disk read.
   */
  private recentlyRead = new Map<RowPointer, Row>();
  private failure: Error | null = null;
  private hooks: StoreHooks<C> = {};
  private inTransaction = false;
  private volatile = new Map<string, () => unknown>();
  private lock!: StoreLock;
  private readonly archived: ReadonlySet<string>;
  private readonly groupFields: ReadonlyMap<string, string>;
  private readonly checkpointAfterLines: number;
  private readonly checkpointAfterBytes: number;
  /** Characters in the journal file and bytes of the last snapshot written (or read): what checkpointAfterBytes compares. */
  private journalBytes = 0;
  private snapshotBytes = 0;

  private constructor(readonly path: string, layout: StoreLayout) {
    this.archived = new Set(layout.archived);
    this.groupFields = new Map(Object.entries(layout.grouped));
    this.checkpointAfterLines = layout.checkpointAfterLines ?? CHECKPOINT_AFTER_LINES;
    this.checkpointAfterBytes = layout.checkpointAfterBytes ?? CHECKPOINT_AFTER_BYTES;
  }

  get journalPath(): string {
    return `${this.path}.journal`;
  }

  /** Opens PATH, or creates it from `initial()` when neither file exists. */
  static async open<C extends CollectionMap>(path: string, initial: () => Snapshot, layout: StoreLayout = { archived: [], grouped: {} }): Promise<{ store: FileStore<C>; created: boolean }> {
    const store = new FileStore<C>(path, layout);
    await mkdir(dirname(path), { recursive: true });
    store.lock = await StoreLock.acquire(path);
    try {
      const created = await store.load(initial);
      return { store, created };
    } catch (error) {
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
    if (this.failure) throw this.failure;
    if (this.journal.failed) throw this.journal.failed;
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

  /** Settles once every change applied so far is on disk. */
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
    if (this.failure) throw this.failure;
    const run = this.runCheckpoint(options.rewriteArchive === true);
    this.checkpointing = run;
    try {
      await run;
    } catch (error) {
      // Files stay as they were before this checkpoint (each step is atomic); memory may not match them.
      this.failure = new Error(`The store ${this.path} could not be checkpointed: ${(error as Error).message}`);
      throw this.failure;
    } finally {
      this.checkpointing = null;
    }
  }

  private async runCheckpoint(forceRewrite: boolean): Promise<void> {
    // Captured in one synchronous step: the state at `seq`.
    const seq = this.seq;
    const meta = Object.fromEntries(this.meta);
    for (const [key, provider] of this.volatile) meta[key] = provider();
    const inline: SnapshotFile['collections'] = {};
    const rewrite = forceRewrite || this.archive === null || (this.archive.size > ARCHIVE_SLACK * this.liveArchiveBytes && this.archive.size > ARCHIVE_MIN_REWRITE_BYTES);
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
    const tombstones = rewrite ? [] : this.tombstones;
    this.tombstones = [];
    this.journal.markRotation();
    const journalBytesAtMark = this.journalBytes;
    try {
      const previous = this.archive;
      const generation = rewrite ? this.generation + 1 : this.generation;
      const archive = rewrite ? await RowArchive.open(this.archivePath(generation), 0) : previous!;
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
      await this.writeSnapshot({ format: 'understudy-store', version: 2, seq, meta, collections: inline, archive: { file: basename(archive.path), length: archive.size } });
      // Committed: point at the archived rows that nobody rewrote meanwhile.
      moved.forEach((m, i) => {
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
        if (previous) {
          await previous.close();
          await RowArchive.remove(previous.path);
        }
      }
      await this.journal.rotate();
      this.journalBytes -= journalBytesAtMark;
      // After the rotation, so that the journal kept is no longer than before; a failed look keeps the last size.
      this.snapshotBytes = await stat(this.path).then((s) => s.size, () => this.snapshotBytes);
    } catch (error) {
      this.journal.dropMark();
      throw error;
    }
  }

  private archivePath(generation: number): string {
    return `${this.path}.rows.${generation}`;
  }

  private async writeSnapshot(file: SnapshotFile): Promise<void> {
    this.low.data = file;
    await this.low.write();
    // The document is only needed while being written.
    this.low.data = null as never;
  }

  async close(): Promise<void> {
    await this.journal.flushAll();
    await this.checkpoint();
    await this.journal.close();
    await this.archive?.close();
    await this.lock.release();
  }

  /** Replaces the whole state (snapshot import, reset); durable on return. A malformed snapshot changes nothing. */
  async replaceAll(snapshot: Snapshot): Promise<void> {
    const problem = snapshotShapeProblem(snapshot);
    if (problem) throw new SnapshotShapeError(problem);
    while (this.checkpointing) await this.checkpointing.catch(() => undefined);
    await this.journal.flushAll();
    this.data.clear();
    this.groups.clear();
    this.memberOf.clear();
    this.recentlyRead.clear();
    this.tombstones = [];
    this.liveArchiveBytes = 0;
    this.fill(snapshot.collections, snapshot.meta, this.seq + 1);
    await this.checkpoint({ rewriteArchive: true });
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
    this.seq += 1;
    for (const [collection, id, row] of ops) this.applyOp(collection, id, row);
    for (const [key, value] of metaOps) this.meta.set(key, value);
    const line = JSON.stringify(metaOps.length > 0 ? { s: this.seq, o: ops, m: metaOps } : { s: this.seq, o: ops }) + '\n';
    if (durable) {
      // The returned promise is awaited through settled(); a failure is kept by the journal.
      this.journal.append(line).catch(() => undefined);
    } else this.journal.appendLazily(line);
    this.journalBytes += line.length;
    const journalFull = this.journal.lines >= this.checkpointAfterLines || this.journalBytes >= Math.max(this.checkpointAfterBytes, this.snapshotBytes);
    if (journalFull && !this.checkpointing && !this.failure) {
      // Its failure is kept (this.failure) and refuses later transactions.
      this.checkpoint().catch(() => undefined);
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
    this.low = new Low<SnapshotFile>(new DurableJsonFile<SnapshotFile>(this.path, (text) => parseSnapshot(this.path, text)), null as never);
    await this.low.read();
    const journalText = await readJournal(this.journalPath);
    const snapshotExists = await exists(this.path);
    if (!snapshotExists && journalText !== null && journalText.length > 0) {
      throw new StoreFileError(this.path, `the snapshot is missing but its journal ${this.journalPath} is not empty`);
    }
    const file: SnapshotFile = snapshotExists ? this.low.data : initial();
    this.low.data = null as never;
    // Collections in the snapshot's order, archived ones included, whatever order the archive names them in.
    for (const name of Object.keys(file.collections)) this.data.set(name, new Map());
    if (file.archive) await this.openArchive(file.archive);
    await this.removeStrayArchives();
    this.fill(file.collections, file.meta, file.seq);
    let lines = 0;
    if (journalText) {
      const { entries, validLength } = parseJournal(this.journalPath, journalText);
      for (const entry of entries) {
        if (entry.s <= this.seq) continue;
        this.seq = entry.s;
        for (const [c, id, row] of entry.o) this.applyOp(c, id, row ? Object.freeze(row) : null);
        for (const [k, v] of entry.m ?? []) this.meta.set(k, v);
        lines += 1;
      }
      // A torn last line was never acknowledged (answers wait for the flush), so it is cut off.
      if (validLength < Buffer.byteLength(journalText)) await truncateFile(this.journalPath, validLength);
      this.journalBytes = validLength;
    }
    if (snapshotExists) this.snapshotBytes = (await stat(this.path)).size;
    this.journal = await Journal.open(this.journalPath, lines);
    if (!snapshotExists) {
      await this.checkpoint({ rewriteArchive: true });
      return true;
    }
    return false;
  }

  private async openArchive(named: { file: string; length: number }): Promise<void> {
    const match = /\.rows\.(\d+)$/.exec(named.file);
    if (!match || named.file !== basename(this.archivePath(Number(match[1])))) {
      throw new StoreFileError(this.path, `its archive ${JSON.stringify(named.file)} is not one of this store's archive files`);
    }
    this.generation = Number(match[1]);
    this.archive = await RowArchive.open(this.archivePath(this.generation), named.length);
    this.archive.scan((collection, id, pointer, group) => this.setSlot(collection, id, pointer, group));
  }

  /** Archive generations a checkpoint began but never committed. */
  private async removeStrayArchives(): Promise<void> {
    const prefix = `${basename(this.path)}.rows.`;
    const current = this.archive ? basename(this.archive.path) : null;
    for (const name of await readdir(dirname(this.path))) {
      if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)) && name !== current) await RowArchive.remove(join(dirname(this.path), name));
    }
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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function readJournal(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StoreFileError(path, (error as Error).message);
  }
}

function parseSnapshot(path: string, text: string): SnapshotFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(path, `it is not valid JSON (${(error as Error).message})`);
  }
  const s = value as Partial<SnapshotFile>;
  if (!s || typeof s !== 'object' || s.format !== 'understudy-store') throw new StoreFileError(path, 'it is not an understudy store (no "format": "understudy-store")');
  if (s.version !== 1 && s.version !== 2) throw new StoreFileError(path, `its version ${JSON.stringify(s.version)} is not one this build reads (1 or 2)`);
  if (typeof s.seq !== 'number' || !s.meta || typeof s.meta !== 'object' || !s.collections || typeof s.collections !== 'object') {
    throw new StoreFileError(path, 'its "seq", "meta" or "collections" field is missing or of the wrong type');
  }
  const archive = s.archive as { file?: unknown; length?: unknown } | null | undefined;
  if (archive != null && (typeof archive.file !== 'string' || !Number.isSafeInteger(archive.length) || (archive.length as number) < 0)) {
    throw new StoreFileError(path, 'its "archive" field must name a file and a length');
  }
  return s as SnapshotFile;
}

interface JournalEntry {
  s: number;
  o: Op[];
  m?: Array<[string, unknown]>;
}

function parseJournal(path: string, text: string): { entries: JournalEntry[]; validLength: number } {
  const entries: JournalEntry[] = [];
  let offset = 0;
  let lineNo = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    if (end === -1) break; // torn tail
    lineNo += 1;
    const line = text.slice(offset, end);
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      throw new StoreFileError(path, `line ${lineNo} is not valid JSON (${(error as Error).message})`);
    }
    if (typeof entry?.s !== 'number' || !Array.isArray(entry.o)) throw new StoreFileError(path, `line ${lineNo} is not a journal entry`);
    entries.push(entry);
    offset = end + 1;
  }
  return { entries, validLength: Buffer.byteLength(text.slice(0, offset)) };
}
