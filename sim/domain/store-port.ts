import type { Collections } from './collections.ts';

/**
 * The store as the domain sees it (a port): atomic transactions, and reads by
 * id, by collection and by group, nothing about files, journals or archives.
 * The file store (sim/store) implements it; the domain imports nothing from
 * there, so storage policy (what is archived, how rows are grouped) stays the
 * store's business.
 */

type Name = keyof Collections & string;

/** One transaction's view: its own writes over the committed state. */
export interface StoreTx {
  get<K extends Name>(collection: K, id: string): Collections[K] | undefined;
  put<K extends Name>(collection: K, row: Collections[K]): void;
  delete<K extends Name>(collection: K, id: string): void;
  all<K extends Name>(collection: K): Collections[K][];
  /** Rows of a grouped collection whose group field holds `key`, oldest first. */
  group<K extends Name>(collection: K, key: string): Collections[K][];
  getMeta<T>(key: string): T | undefined;
  setMeta(key: string, value: unknown): void;
  /** Rows of `collection` written in this transaction so far. */
  written<K extends Name>(collection: K): Collections[K][];
}

/** Reads of committed state, outside any transaction. */
export interface StoreReads {
  get<K extends Name>(collection: K, id: string): Collections[K] | undefined;
  all<K extends Name>(collection: K): Collections[K][];
  /** Rows of a grouped collection whose group field holds `key`, oldest first. */
  group<K extends Name>(collection: K, key: string): Collections[K][];
  getMeta<T>(key: string): T | undefined;
  /** Ids of a collection, oldest first (rows read one by one: archived ones are not all held in memory). */
  idsOf(collection: Name): Iterable<string>;
  /** Ids of a grouped collection's rows whose group field holds `key`, oldest first. */
  groupIdsOf(collection: Name, key: string): Iterable<string>;
}

export interface StorePort extends StoreReads {
  /** Runs `fn` as one atomic change: all of its writes are committed, or none (it threw). */
  transact<R>(fn: (tx: StoreTx) => R): R;
}
