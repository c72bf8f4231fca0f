import type { Collections } from './collections.ts';
import type { Store } from './context.ts';

/**
 * The newest `limit` rows of a collection, or of one group of a grouped one,
 * newest first. Ids are walked in the store's order (oldest first) without
 * reading their rows, so only the rows answered are read back from the
 * archive: a monitor with a year of events costs the same to show as one
 * with a day's.
 */
export function newestRows<K extends keyof Collections & string>(store: Store, collection: K, group: string | null, limit: number): Collections[K][] {
  const ids = group === null ? store.idsOf(collection) : store.groupIdsOf(collection, group);
  const last: string[] = [];
  let next = 0;
  // A ring of the last `limit` ids seen.
  for (const id of ids) {
    if (last.length < limit) last.push(id);
    else last[next] = id;
    next = (next + 1) % limit;
  }
  const oldestFirst = last.length < limit ? last : [...last.slice(next), ...last.slice(0, next)];
  const rows: Collections[K][] = [];
  for (let i = oldestFirst.length - 1; i >= 0; i -= 1) {
    const row = store.get(collection, oldestFirst[i]);
    if (row) rows.push(row);
  }
  return rows;
}
