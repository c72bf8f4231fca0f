/** The shapes the file store exchanges with its callers (file-store.ts re-exports them). */
import type { StoreFs } from './store-fs.ts';

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

export interface StoreFigures {
  residentRows: number;
  archivedRows: number;
  journalLines: number;
  archive: { file: string; bytes: number; liveBytes: number } | null;
  checkpointRunning: boolean;
}
