import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { FileStore, StoreFileError, type Snapshot } from '../../sim/store/file-store.ts';

/** Shared helpers of the store suite (not a test file): a FileStore with archived and grouped collections, as the simulator's. */

type Item = { id: string; n: number; text?: string; owner?: string };
export type Collections = { [name: string]: { id: string }; cold: Item; hot: Item; ledger: Item };
const LAYOUT = { archived: ['cold', 'ledger'], grouped: { ledger: 'owner' } };
const empty = (): Snapshot => ({ format: 'understudy-store', version: 1, seq: 0, meta: {}, collections: {} });

export const openStore = async (path: string) => (await FileStore.open<Collections>(path, empty, LAYOUT)).store;

/** The state as plain data, every row read (from memory or the archive). */
export const stateOf = (store: FileStore<Collections>) => {
  const s = store.toSnapshot();
  return { meta: s.meta, collections: Object.fromEntries(Object.entries(s.collections).filter(([, rows]) => Object.keys(rows).length > 0)) };
};

const made: string[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-store-'));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** The store's files (not its lock) copied into a new directory, as a crash at this instant would leave them. */
export async function copyStore(path: string): Promise<string> {
  const dir = await tempDir();
  for (const name of await readdir(dirname(path))) {
    if (name.startsWith(basename(path)) && !name.endsWith('.lock')) await copyFile(join(dirname(path), name), join(dir, name));
  }
  return join(dir, basename(path));
}

/** Every file in the store's directory, by name, with its bytes (to show a refusal changed nothing). */
export async function filesOf(path: string): Promise<Record<string, Buffer>> {
  const out: Record<string, Buffer> = {};
  for (const name of (await readdir(dirname(path))).sort()) if (!name.endsWith('.lock')) out[name] = await readFile(join(dirname(path), name));
  return out;
}

/** Opens `path` and closes it again; returns the refusal, or null when it opened. */
export async function openingError(path: string): Promise<StoreFileError | null> {
  try {
    const store = await openStore(path);
    await store.close();
    return null;
  } catch (error) {
    if (error instanceof StoreFileError) return error;
    throw error;
  }
}
