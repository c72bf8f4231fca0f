import type { Snapshot } from './store-types.ts';
import { ROWS_PER_TURN } from './turns.ts';

/** A snapshot handed to replaceAll that the store cannot hold (checked before anything changes). */
export class SnapshotShapeError extends Error {
  constructor(readonly problem: string) {
    super(`The snapshot cannot be loaded: ${problem}.`);
    this.name = 'SnapshotShapeError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why `snapshot` does not have the store's shape (meta, collections of rows keyed by their id),
 * or null; a pass over every row (turns.ts), as an import checks it while serving.
 */
export function* snapshotShapeSteps(snapshot: Snapshot): Generator<void, string | null, void> {
  if (!isPlainObject(snapshot)) return 'it is not an object';
  if (!isPlainObject(snapshot.meta)) return "'meta' must be an object";
  if (!isPlainObject(snapshot.collections)) return "'collections' must be an object";
  let looked = 0;
  for (const [name, rows] of Object.entries(snapshot.collections)) {
    if (!isPlainObject(rows)) return `'collections.${name}' must be an object of rows`;
    // Keys, not entries: one array of the ids rather than a pair for each of a large collection's rows.
    for (const id of Object.keys(rows)) {
      const row = rows[id];
      if (!isPlainObject(row) || row.id !== id) return `'collections.${name}.${id}' must be an object whose id is its key`;
      if (++looked % ROWS_PER_TURN === 0) yield;
    }
  }
  return null;
}
