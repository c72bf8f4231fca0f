import type { CollectionMap, Row, Tx } from './store-types.ts';

/** What a transaction reads underneath its own writes: the store's committed state. */
export interface CommittedState {
  get(collection: string, id: string): Row | undefined;
  getMeta<T>(key: string): T | undefined;
  /** Ids of a collection, oldest first. */
  idsOf(collection: string): Iterable<string>;
  /** Ids of a grouped collection's rows whose group field holds `key`. */
  groupIdsOf(collection: string, key: string): Iterable<string>;
  /** The group a row of `collection` belongs to, or null when the collection is not grouped. */
  groupOf(collection: string, row: Row): string | null;
}


/**
 * One transaction's view: its writes, kept apart (an overlay) until commit, over
 * the committed state. One object per transaction, its methods on the prototype:
 * the clock fast-forward runs tens of thousands of transactions.
 */
export class Transaction<C extends CollectionMap> implements Tx<C> {
  /** Written rows per collection; null marks a delete. */
  readonly overlay = new Map<string, Map<string, Row | null>>();
  readonly metaOverlay = new Map<string, unknown>();

  constructor(private readonly committed: CommittedState) {}

  get<K extends keyof C & string>(collection: K, id: string): C[K] | undefined {
    const written = this.overlay.get(collection);
    if (written?.has(id)) return (written.get(id) ?? undefined) as C[K] | undefined;
    return this.committed.get(collection, id) as C[K] | undefined;
  }

  put<K extends keyof C & string>(collection: K, row: C[K]): void {
    this.slot(collection).set(row.id, Object.freeze({ ...row }));
  }

  delete<K extends keyof C & string>(collection: K, id: string): void {
    this.slot(collection).set(id, null);
  }

  all<K extends keyof C & string>(collection: K): C[K][] {
    return this.merged(this.committed.idsOf(collection), collection, null) as C[K][];
  }

  group<K extends keyof C & string>(collection: K, key: string): C[K][] {
    return this.merged(this.committed.groupIdsOf(collection, key), collection, key) as C[K][];
  }

  getMeta<T>(key: string): T | undefined {
    return (this.metaOverlay.has(key) ? this.metaOverlay.get(key) : this.committed.getMeta(key)) as T | undefined;
  }

  setMeta(key: string, value: unknown): void {
    this.metaOverlay.set(key, value);
  }

  written<K extends keyof C & string>(collection: K): C[K][] {
    const out: Row[] = [];
    for (const row of this.overlay.get(collection)?.values() ?? []) if (row !== null) out.push(row);
    return out as C[K][];
  }

  private slot(collection: string): Map<string, Row | null> {
    let rows = this.overlay.get(collection);
    if (!rows) this.overlay.set(collection, (rows = new Map()));
    return rows;
  }

  /** Committed rows with `ids` as this transaction sees them: its writes replace, remove or add rows (of `group`, when given: a row written into another group leaves it). */
  private merged(ids: Iterable<string>, collection: string, group: string | null): Row[] {
    const written = this.overlay.get(collection);
    const out: Row[] = [];
    const seen = written ? new Set<string>() : null;
    const belongs = (row: Row) => group === null || this.committed.groupOf(collection, row) === group;
    for (const id of ids) {
      seen?.add(id);
      if (written?.has(id)) {
        const row = written.get(id);
        if (row && belongs(row)) out.push(row);
      } else out.push(this.committed.get(collection, id)!);
    }
    if (written && seen) for (const [id, row] of written) if (row && !seen.has(id) && belongs(row)) out.push(row);
    return out;
  }
}
