import type { Snapshot } from './store-types.ts';

/** A snapshot handed to replaceAll that the store cannot hold (checked before anything changes). */
export class SnapshotShapeError extends Error {
  constructor(readonly problem: string) {
    super(`The snapshot cannot be loaded: ${problem}.`);
    this.name = 'SnapshotShapeError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why `snapshot` does not have the store's shape (meta, collections of rows keyed by their id), or null. */
export function snapshotShapeProblem(snapshot: Snapshot): string | null {
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
