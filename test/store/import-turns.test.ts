import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore, StoreBusyError, type Snapshot } from '../../sim/store/file-store.ts';
import type { StoreFs } from '../../sim/store/store-fs.ts';
import { ROWS_PER_TURN } from '../../sim/store/turns.ts';
import { openStore, removeTempDirs, stateOf, tempDir, type Collections } from './support.ts';

/**
 * Issue 29: replacing the whole state (a snapshot import) lets other callbacks run
 * between its passes over the rows, not only at its writes. A callback that runs at
 * every turn of the event loop reads and tries to write: it must run before the new
 * archive generation is even opened (the shape check, the fill and the capture come
 * before it), and while the committed state is being pointed at the archive; every
 * read answers from the state before until the commit, then from the new one (rows
 * half pointed at included), and every write from the fill on is refused. Orderings,
 * never durations.
 */

afterEach(removeTempDirs);

const empty = (): Snapshot => ({ format: 'understudy-store', version: 1, seq: 0, meta: {}, collections: {} });
const LAYOUT = { archived: ['cold', 'ledger'], grouped: { ledger: 'owner' } };

describe('a whole-state replace in progress', () => {
  it('lets other callbacks run between its passes, reads see one state or the other whole, writes are refused, and it is durable', async () => {
    const path = join(await tempDir(), 'store.json');
    const events: string[] = [];
    const fs: StoreFs = {
      async open(file, flags) {
        if (flags === 'w+' && /\.rows\.\d+$/.test(file)) events.push('archive opened');
        return open(file, flags);
      },
    };
    const store = (await FileStore.open<Collections>(path, empty, LAYOUT, { fs })).store;
    store.transact((tx) => tx.put('cold', { id: 'before', n: -1 }));
    await store.settled();
    // The store's first checkpoint opened generation 1: only the replace's own counts from here.
    events.length = 0;

    const coldRows = 3 * ROWS_PER_TURN + 1;
    const cold = Object.fromEntries(Array.from({ length: coldRows }, (_, i) => [`c${i}`, { id: `c${i}`, n: i, text: 'x'.repeat(40) }]));
    const hot = Object.fromEntries(Array.from({ length: 2 * ROWS_PER_TURN }, (_, i) => [`h${i}`, { id: `h${i}`, n: i }]));
    const snapshot: Snapshot = { format: 'understudy-store', version: 1, seq: 0, meta: { note: 'imported' }, collections: { cold, hot } };

    let promoted = false;
    let replacing = true;
    const wrongReads: string[] = [];
    let writesTried = 0;
    let halfPointed = 0;
    const atTurn = () => {
      if (!replacing) return;
      events.push(promoted ? 'turn after promote' : 'turn before promote');
      const probe = promoted ? store.get('cold', `c${coldRows - 1}`) : store.get('cold', 'before');
      const expected = promoted ? cold[`c${coldRows - 1}`] : { id: 'before', n: -1 };
      if (JSON.stringify(probe) !== JSON.stringify(expected)) wrongReads.push(`${events.length}: ${JSON.stringify(probe)}`);
      if (promoted) {
        const { archivedRows } = store.figures();
        if (archivedRows > 0 && archivedRows < coldRows) halfPointed += 1;
        // A row whose pointer is already set, and one still in memory, read the same as imported.
        for (const id of ['c0', `c${coldRows - 1}`]) if (JSON.stringify(store.get('cold', id)) !== JSON.stringify(cold[id])) wrongReads.push(`${id} after promote`);
      }
      // From the fill on (the shape check before it changes nothing, as the import's own checks).
      if (store.isReplacing) {
        writesTried += 1;
        expect(() => store.transact((tx) => tx.put('hot', { id: 'during', n: 0 }))).toThrow(StoreBusyError);
      }
      setImmediate(atTurn);
    };
    setImmediate(atTurn);
    await store.replaceAll(snapshot, () => {
      promoted = true;
      events.push('promoted');
    });
    replacing = false;

    expect(wrongReads).toEqual([]);
    expect(writesTried).toBeGreaterThan(0);
    const opened = events.indexOf('archive opened');
    const promotedAt = events.indexOf('promoted');
    // The shape check, the fill and the capture each took turns before the archive was opened.
    expect(events.slice(0, opened).filter((e) => e === 'turn before promote').length).toBeGreaterThanOrEqual(3);
    // Pointing the committed rows at the archive took turns too, with the rows half pointed.
    expect(events.slice(promotedAt).filter((e) => e === 'turn after promote').length).toBeGreaterThan(0);
    expect(halfPointed).toBeGreaterThan(0);
    expect(store.get('hot', 'during')).toBeUndefined();
    expect(store.figures()).toMatchObject({ archivedRows: coldRows, residentRows: 2 * ROWS_PER_TURN });

    await store.close();
    const reopened = await openStore(path);
    expect(stateOf(reopened)).toEqual({ meta: { note: 'imported' }, collections: { cold, hot } });
    await reopened.close();
  });
});
