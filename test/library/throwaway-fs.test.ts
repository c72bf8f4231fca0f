import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { throwawayStoreFs } from '../../src/library/throwaway-fs.ts';
import { FileStore, type Snapshot } from '../../sim/store/file-store.ts';
import { writeAll } from '../../sim/store/store-fs.ts';
import { removeTempDirs, tempDir, type Collections } from '../store/support.ts';

/** The library's temporary store writes on the calling thread and never flushes: what it writes must still be in its files. */

const empty = (): Snapshot => ({ format: 'understudy-store', version: 1, seq: 0, meta: {}, collections: {} });

afterEach(removeTempDirs);

describe("the library's temporary store files", () => {
  it('append, write at a position and overwrite in place as node:fs does', async () => {
    const path = join(await tempDir(), 'file');
    const appended = await throwawayStoreFs.open(path, 'a');
    await writeAll(appended, Buffer.from('one\n'), null, path);
    await writeAll(appended, Buffer.from('two\n'), null, path);
    await appended.close();
    expect(await readFile(path, 'utf8')).toBe('one\ntwo\n');

    const positioned = await throwawayStoreFs.open(path, 'r+');
    await writeAll(positioned, Buffer.from('ONE'), 0, path);
    // Part of a buffer: writeAll passes an offset and a length after a short write.
    const { bytesWritten } = await positioned.write(Buffer.from('xxTWOxx'), 2, 3, 4);
    expect(bytesWritten).toBe(3);
    await positioned.datasync();
    await positioned.close();
    expect(await readFile(path, 'utf8')).toBe('ONE\nTWO\n');
  });

  it('a full disk (/dev/full) rejects the write, as node:fs does, and does not throw where it is called', async () => {
    const handle = await throwawayStoreFs.open('/dev/full', 'r+');
    try {
      let thrown: unknown = null;
      let written: Promise<unknown> | null = null;
      try {
        written = writeAll(handle, Buffer.from('no room'), null, '/dev/full');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeNull();
      await expect(written).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      await handle.close();
    }
  });

  it('a committed change is in the journal file when the store says it is settled', async () => {
    const path = join(await tempDir(), 'store.json');
    const { store } = await FileStore.open<Collections>(path, empty, { archived: [], grouped: {} }, { fs: throwawayStoreFs });
    try {
      store.transact((tx) => tx.put('hot', { id: 'h1', n: 7, text: 'kept' }));
      await store.settled();
      const journal = await readFile(store.journalPath, 'utf8');
      expect(journal).toContain('"id":"h1"');
      expect(journal).toContain('"text":"kept"');
    } finally {
      await store.close();
    }
  });
});
