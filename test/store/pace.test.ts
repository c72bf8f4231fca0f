import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, removeTempDirs, stateOf, tempDir } from './support.ts';

afterEach(removeTempDirs);

describe('pace(): a long run of transactions (an advance) keeps its journal moving', () => {
  it('waits for the disk once more than 4 MB of lines queue behind the write under way; every line so far is then in the file, and a reopen has them', async () => {
    const path = join(await tempDir(), 'store.json');
    const store = await openStore(path);
    await store.flush();
    const before = (await stat(`${path}.journal`)).size;
    // In one turn, as an advance's jobs run: the first line is being written, the other 599 (≈ 4.8 MB) queue behind it.
    for (let i = 0; i < 600; i += 1) store.transact((tx) => tx.put('hot', { id: `h${i}`, n: i, text: 'z'.repeat(8000) }));
    expect(store.idle()).toBe(false);
    await store.pace();
    expect(store.idle()).toBe(true);
    expect((await stat(`${path}.journal`)).size - before).toBeGreaterThan(600 * 8000);
    const state = stateOf(store);
    await store.close();
    const reopened = await openStore(path);
    expect(stateOf(reopened)).toEqual(state);
    expect(Object.keys(stateOf(reopened).collections.hot)).toHaveLength(600);
    await reopened.close();
  });
});
