import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MonitorIndex } from '../../sim/domain/chains/monitor-index.ts';
import { logId } from '../../sim/domain/chains/log-id.ts';
import type { ChainLog } from '../../sim/domain/chains/records.ts';
import { FileStore, type Snapshot } from '../../sim/store/file-store.ts';
import { removeTempDirs, tempDir } from '../store/support.ts';

/** The engine's index of blocks holding logs, per chain and per chain and address, kept from a real file store's commits. */

const empty = (): Snapshot => ({ format: 'understudy-store', version: 1, seq: 0, meta: {}, collections: {} });
const TOKEN = `0x${'a1'.repeat(20)}`;
const OTHER = `0x${'b2'.repeat(20)}`;
const NONE = { written: () => [] };

function log(block: bigint, index: number, address: string): ChainLog {
  return { id: logId('base', block, index), chain: 'base', blockNumber: String(block), logIndex: index, transactionHash: `0x${'0'.repeat(64)}`, address, event: 'Transfer', args: {}, generation: 0, removed: false };
}

afterEach(removeTempDirs);

describe('the monitor index', () => {
  it('finds the next block holding a log at the addresses asked for, in any case, and forgets a log deleted from the store', async () => {
    const { store } = await FileStore.open<{ chainLogs: ChainLog }>(join(await tempDir(), 'store.json'), empty);
    try {
      const index = new MonitorIndex(store as never);
      store.setHooks({ afterCommit: (collection, id, row) => index.observe(collection, id, row) });
      // An address written in upper case, as an imported snapshot may hold it.
      store.transact((tx) => {
        tx.put('chainLogs', log(100n, 0, OTHER));
        tx.put('chainLogs', log(120n, 0, TOKEN.toUpperCase().replace('0X', '0x')));
        tx.put('chainLogs', log(120n, 1, OTHER));
      });
      expect(index.nextLogBlock(NONE, 'base', 0n)).toBe(100n);
      expect(index.nextLogBlock(NONE, 'base', 0n, [TOKEN])).toBe(120n);
      expect(index.nextLogBlock(NONE, 'base', 121n, [TOKEN])).toBeNull();
      expect(index.nextLogBlock(NONE, 'ethereum', 0n, [TOKEN])).toBeNull();

      store.transact((tx) => tx.delete('chainLogs', logId('base', 120n, 0)));
      expect(index.nextLogBlock(NONE, 'base', 0n, [TOKEN])).toBeNull();
      // Block 120 still holds the other token's log.
      expect(index.nextLogBlock(NONE, 'base', 101n)).toBe(120n);
      store.transact((tx) => tx.delete('chainLogs', logId('base', 120n, 1)));
      expect(index.nextLogBlock(NONE, 'base', 101n)).toBeNull();

      // What the transaction in progress wrote counts before it commits.
      store.transact((tx) => {
        tx.put('chainLogs', log(130n, 0, TOKEN));
        expect(index.nextLogBlock(tx as never, 'base', 0n, [TOKEN])).toBe(130n);
        expect(index.nextLogBlock(tx as never, 'base', 0n, [OTHER])).toBe(100n);
      });
    } finally {
      await store.close();
    }
  });
});
