import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore, type Snapshot } from '../../sim/store/file-store.ts';
import { copyStore, removeTempDirs, stateOf, tempDir, type Collections } from './support.ts';

const empty = (): Snapshot => ({ format: 'understudy-store', version: 1, seq: 0, meta: {}, collections: {} });
/** A journal past 4 KB starts a checkpoint (or past the snapshot's size, when larger). */
const LAYOUT = { archived: ['cold', 'ledger'], grouped: { ledger: 'owner' }, checkpointAfterBytes: 4096 };

async function openSmall(path: string) {
  return (await FileStore.open<Collections>(path, empty, LAYOUT)).store;
}

/** Turns of the event loop until no checkpoint is running (none starts without a write). */
async function checkpointsDone(store: FileStore<Collections>): Promise<void> {
  for (let i = 0; i < 1000 && store.figures().checkpointRunning; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(store.figures().checkpointRunning).toBe(false);
}

afterEach(removeTempDirs);

describe('a checkpoint outgrown by a burst of writes', () => {
  it('leaves the journal whole instead of rewriting the burst into a new one; the next checkpoint rotates it, and every write is kept', async () => {
    const path = join(await tempDir(), 'store.json');
    const store = await openSmall(path);
    await store.flush();
    const journal = `${path}.journal`;
    const before = await stat(journal);

    // One write past the trigger starts a checkpoint; the burst that follows in the
    // same turn (as jobs of an advance run) is four times the journal it captured.
    store.transact((tx) => tx.put('hot', { id: 'big', n: 0, text: 'x'.repeat(5000) }));
    for (let i = 0; i < 200; i += 1) store.transact((tx) => tx.put('cold', { id: `c${i}`, n: i, text: 'y'.repeat(100) }));
    await store.flush();
    await checkpointsDone(store);

    // Not rotated: the same file (a rotation renames a new one over it), holding the burst once.
    const after = await stat(journal);
    expect(after.ino).toBe(before.ino);
    expect((await readFile(journal, 'utf8')).split('\n').filter((line) => line.includes('"c199"'))).toHaveLength(1);
    const expected = stateOf(store);

    // The next write finds the journal still past the trigger: that checkpoint's capture is after the burst, so it rotates.
    store.transact((tx) => tx.put('hot', { id: 'after', n: 1 }));
    await store.flush();
    await checkpointsDone(store);
    expect((await stat(journal)).ino).not.toBe(before.ino);
    expect((await readFile(journal, 'utf8')).includes('"c199"')).toBe(false);
    await store.close();

    const reopened = await openSmall(path);
    expect(stateOf(reopened)).toEqual({ ...expected, collections: { ...expected.collections, hot: { ...expected.collections.hot, after: { id: 'after', n: 1 } } } });
    await reopened.close();
  });

  it('a store closed with the journal left whole (the snapshot naming the next one) opens with every write', async () => {
    const path = join(await tempDir(), 'store.json');
    const store = await openSmall(path);
    store.transact((tx) => tx.put('hot', { id: 'big', n: 0, text: 'x'.repeat(5000) }));
    for (let i = 0; i < 200; i += 1) store.transact((tx) => tx.put('ledger', { id: `l${i}`, n: i, owner: `o${i % 3}`, text: 'z'.repeat(100) }));
    await store.flush();
    await checkpointsDone(store);
    const expected = stateOf(store);
    // A crash here: the files as they are, opened by another process.
    const copy = await copyStore(path);
    await store.close();
    const reopened = await openSmall(copy);
    expect(stateOf(reopened)).toEqual(expected);
    expect(reopened.group('ledger', 'o1').map((row) => row.id)).toEqual(Array.from({ length: 200 }, (_, i) => `l${i}`).filter((_, i) => i % 3 === 1));
    await reopened.close();
  });
});
