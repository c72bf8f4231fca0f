import { readFile, stat, truncate as truncateFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { DurableJsonFile } from './durable-json-file.ts';
import { Journal } from './journal.ts';
import { StoreFileError } from './store-file-error.ts';

export { StoreFileError };

export type Row = { readonly id: string };
export type CollectionMap = Record<string, Row>;

/** The snapshot file's shape. */
export interface Snapshot {
  format: 'understudy-store';
  version: 1;
  seq: number;
  meta: Record<string, unknown>;
  collections: Record<string, Record<string, Row>>;
}

type Op = [collection: string, id: string, row: Row | null];

export interface Tx<C extends CollectionMap> {
  get<K extends keyof C & string>(collection: K, id: string): C[K] | undefined;
  put<K extends keyof C & string>(collection: K, row: C[K]): void;
  delete<K extends keyof C & string>(collection: K, id: string): void;
  all<K extends keyof C & string>(collection: K): C[K][];
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

/** Journal lines past this many are folded into the snapshot at the next compaction point. */
const COMPACT_AFTER_LINES = 50_000;

/**
 * The file store: a lowdb snapshot (`PATH`) plus an append-only journal
 * (`PATH.journal`). Transactions run synchronously against an overlay, so a
 * refused transaction leaves memory untouched; a committed one is applied to
 * memory and appended to the journal, and callers wait on `settled()` before
 * answering. Load refuses (never rewrites) a file it cannot read.
 */
export class FileStore<C extends CollectionMap> {
  private data = new Map<string, Map<string, Row>>();
  private meta = new Map<string, unknown>();
  private seq = 0;
  private journal!: Journal;
  private low!: Low<Snapshot>;
  private hooks: StoreHooks<C> = {};
  private inTransaction = false;
  private volatile = new Map<string, () => unknown>();

  private constructor(readonly path: string) {}

  get journalPath(): string {
    return `${this.path}.journal`;
  }

  /** Opens PATH, or creates it from `initial()` when neither file exists. */
  static async open<C extends CollectionMap>(path: string, initial: () => Snapshot): Promise<{ store: FileStore<C>; created: boolean }> {
    const store = new FileStore<C>(path);
    const created = await store.load(initial);
    return { store, created };
  }

  setHooks(hooks: StoreHooks<C>): void {
    this.hooks = hooks;
  }

  /** Meta written only with the snapshot (compaction, close): state whose loss in a crash is harmless. */
  setVolatile(key: string, provider: () => unknown): void {
    this.volatile.set(key, provider);
  }

  get<K extends keyof C & string>(collection: K, id: string): C[K] | undefined {
    return this.data.get(collection)?.get(id) as C[K] | undefined;
  }

  all<K extends keyof C & string>(collection: K): C[K][] {
    return [...(this.data.get(collection)?.values() ?? [])] as C[K][];
  }

  count(collection: keyof C & string): number {
    return this.data.get(collection)?.size ?? 0;
  }

  getMeta<T>(key: string): T | undefined {
    return this.meta.get(key) as T | undefined;
  }

  /**
   * Runs `fn` as one transaction. On return, its writes are in memory and queued
   * for the journal; on throw, nothing changed. Not re-entrant.
   */
  transact<R>(fn: (tx: Tx<C>) => R): R {
    if (this.inTransaction) throw new Error('nested store transaction');
    if (this.journal.failed) throw this.journal.failed;
    this.inTransaction = true;
    try {
      const overlay = new Map<string, Map<string, Row | null>>();
      const metaOverlay = new Map<string, unknown>();
      const slot = (collection: string) => {
        let m = overlay.get(collection);
        if (!m) overlay.set(collection, (m = new Map()));
        return m;
      };
      const tx: Tx<C> = {
        get: (collection, id) => {
          const o = overlay.get(collection);
          if (o?.has(id)) return (o.get(id) ?? undefined) as never;
          return this.get(collection, id);
        },
        put: (collection, row) => {
          slot(collection).set(row.id, Object.freeze({ ...row }));
        },
        delete: (collection, id) => {
          slot(collection).set(id, null);
        },
        all: (collection) => {
          const o = overlay.get(collection);
          const base = this.data.get(collection);
          if (!o) return [...(base?.values() ?? [])] as never;
          const out: Row[] = [];
          for (const [id, row] of base ?? []) {
            if (o.has(id)) {
              const r = o.get(id);
              if (r) out.push(r);
            } else out.push(row);
          }
          for (const [id, row] of o) if (row && !base?.has(id)) out.push(row);
          return out as never;
        },
        getMeta: <T>(key: string) => (metaOverlay.has(key) ? metaOverlay.get(key) : this.meta.get(key)) as T | undefined,
        setMeta: (key, value) => {
          metaOverlay.set(key, value);
        },
        written: (collection) => [...(overlay.get(collection)?.values() ?? [])].filter((r): r is Row => r !== null) as never,
      };
      const result = fn(tx);
      this.hooks.beforeCommit?.(tx);
      const ops: Op[] = [];
      for (const [collection, rows] of overlay) for (const [id, row] of rows) ops.push([collection, id, row]);
      const metaOps = [...metaOverlay];
      if (ops.length > 0 || metaOps.length > 0) this.apply(ops, metaOps, true);
      return result;
    } finally {
      this.inTransaction = false;
    }
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

  /** Folds the journal into the snapshot when it has grown long. */
  async maybeCompact(): Promise<void> {
    if (this.journal.lines >= COMPACT_AFTER_LINES) await this.compact();
  }

  async compact(): Promise<void> {
    await this.journal.flushAll();
    await this.writeSnapshot();
    await this.journal.truncate();
  }

  private async writeSnapshot(): Promise<void> {
    this.low.data = this.toSnapshot();
    await this.low.write();
  }

  async close(): Promise<void> {
    await this.compact();
    await this.journal.close();
  }

  /** Replaces the whole state (snapshot import, reset); durable on return. A malformed snapshot changes nothing. */
  async replaceAll(snapshot: Snapshot): Promise<void> {
    const problem = snapshotShapeProblem(snapshot);
    if (problem) throw new SnapshotShapeError(problem);
    await this.journal.flushAll();
    this.fill(snapshot, this.seq + 1);
    await this.writeSnapshot();
    await this.journal.truncate();
  }

  toSnapshot(): Snapshot {
    const collections: Snapshot['collections'] = {};
    for (const [name, rows] of this.data) collections[name] = Object.fromEntries(rows);
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
  }

  private applyOp(collection: string, id: string, row: Row | null): void {
    let rows = this.data.get(collection);
    if (!rows) this.data.set(collection, (rows = new Map()));
    if (row) rows.set(id, row);
    else rows.delete(id);
    this.hooks.afterCommit?.(collection, id, row);
  }

  private fill(snapshot: Snapshot, seq: number): void {
    this.data.clear();
    this.meta = new Map(Object.entries(snapshot.meta));
    for (const [name, rows] of Object.entries(snapshot.collections)) {
      this.data.set(name, new Map(Object.entries(rows).map(([id, r]) => [id, Object.freeze(r)])));
    }
    this.seq = seq;
  }

  private async load(initial: () => Snapshot): Promise<boolean> {
    await mkdir(dirname(this.path), { recursive: true });
    this.low = new Low<Snapshot>(new DurableJsonFile<Snapshot>(this.path, (text) => parseSnapshot(this.path, text)), initial());
    await this.low.read();
    const journalText = await readJournal(this.journalPath);
    const snapshotExists = await exists(this.path);
    if (!snapshotExists && journalText !== null && journalText.length > 0) {
      throw new StoreFileError(this.path, `the snapshot is missing but its journal ${this.journalPath} is not empty`);
    }
    const snapshot = snapshotExists ? (this.low.data as Snapshot) : initial();
    this.fill(snapshot, snapshot.seq);
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
    }
    this.journal = await Journal.open(this.journalPath, lines);
    if (!snapshotExists) {
      await this.writeSnapshot();
      return true;
    }
    return false;
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

function parseSnapshot(path: string, text: string): Snapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreFileError(path, `it is not valid JSON (${(error as Error).message})`);
  }
  const s = value as Partial<Snapshot>;
  if (!s || typeof s !== 'object' || s.format !== 'understudy-store') throw new StoreFileError(path, 'it is not an understudy store (no "format": "understudy-store")');
  if (s.version !== 1) throw new StoreFileError(path, `its version ${JSON.stringify(s.version)} is not one this build reads (1)`);
  if (typeof s.seq !== 'number' || !s.meta || typeof s.meta !== 'object' || !s.collections || typeof s.collections !== 'object') {
    throw new StoreFileError(path, 'its "seq", "meta" or "collections" field is missing or of the wrong type');
  }
  return s as Snapshot;
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
