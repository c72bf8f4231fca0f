import { groupValue } from './row-table.ts';
import type { StoreMemory } from './store-memory.ts';
import type { CollectionMap, Row, StoreLayout } from './store-types.ts';

/**
 * Reading the committed state: rows by id, collection and group, and meta, from the
 * store's memory (archived rows are read back from the archive as they are asked for).
 * The file store (file-store.ts) adds what changes and persists that state.
 */
export abstract class CommittedRows<C extends CollectionMap> {
  protected abstract memory: StoreMemory;

  constructor(protected readonly layout: StoreLayout) {}

  get<K extends keyof C & string>(collection: K, id: string): C[K] | undefined {
    return this.memory.get(collection, id) as C[K] | undefined;
  }

  all<K extends keyof C & string>(collection: K): C[K][] {
    const table = this.memory.tables.get(collection);
    if (!table) return [];
    return table.slots().map((slot) => this.memory.resolve(slot)!) as C[K][];
  }

  group<K extends keyof C & string>(collection: K, key: string): C[K][] {
    return [...this.groupIdsOf(collection, key)].map((id) => this.get(collection, id)!);
  }

  count(collection: keyof C & string): number {
    return this.memory.tables.get(collection)?.size ?? 0;
  }

  getMeta<T>(key: string): T | undefined {
    return this.memory.meta.get(key) as T | undefined;
  }

  /** Ids of a collection, oldest first, without copying them (reading archived rows one by one is cheaper than all()). */
  idsOf(collection: string): Iterable<string> {
    return this.memory.tables.get(collection)?.keys() ?? [];
  }

  /** For transactions (CommittedState): the group a row belongs to, or null for a collection without groups. */
  groupOf(collection: string, row: Row): string | null {
    const field = this.layout.grouped[collection];
    return field === undefined ? null : groupValue(row, field);
  }

  /** Ids in one group of a grouped collection, oldest first, without copying them. */
  groupIdsOf(collection: string, key: string): Iterable<string> {
    return this.memory.tables.get(collection)?.groupIds(key) ?? [];
  }
}
