import { spawn } from 'node:child_process';
import { appendFile, copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore, StoreFileError, type Snapshot } from '../../sim/store/file-store.ts';
import { removeTempDirs, tempDir } from './support.ts';
import { frame } from '../../sim/store/checksum.ts';
import { journalEntries } from '../helpers/journal.ts';

/**
 * The store's archive (sim/store/row-archive.ts): rows of archived collections
 * leave memory at a checkpoint and are read back from the archive file; a
 * checkpoint runs while transactions go on; every file state a crash can leave
 * reopens to the last committed state.
 */

type Item = { id: string; n: number; text?: string; owner?: string };
type Collections = { [name: string]: { id: string }; cold: Item; hot: Item; ledger: Item };
const LAYOUT = { archived: ['cold', 'ledger'], grouped: { ledger: 'owner' } };
const empty = (): Snapshot => ({ format: 'understudy-store', version: 1, seq: 0, meta: {}, collections: {} });

const open = async (path: string) => (await FileStore.open<Collections>(path, empty, LAYOUT)).store;

/** The state as plain data, every row read (from memory or the archive). */
const stateOf = (store: FileStore<Collections>) => {
  const s = store.toSnapshot();
  return { meta: s.meta, collections: Object.fromEntries(Object.entries(s.collections).filter(([, rows]) => Object.keys(rows).length > 0)) };
};

/** Every file of the store, copied to another directory as a crash at this instant would leave them. */
async function crashCopy(path: string): Promise<string> {
  const dir = await tempDir();
  for (const name of await readdir(dirname(path))) {
    // Not the lock: after a real crash its process is gone (and is taken over); here it is this one.
    if (name.startsWith(basename(path)) && !name.endsWith('.lock')) await copyFile(join(dirname(path), name), join(dir, name));
  }
  return join(dir, basename(path));
}

/** A crash now (every file copied as it stands, the store left open) reopens to the very state the store holds. */
async function expectCrashCopyToReopenAsIs(store: FileStore<Collections>, path: string): Promise<void> {
  const expected = stateOf(store);
  const reopened = await open(await crashCopy(path));
  expect(stateOf(reopened)).toEqual(expected);
  await reopened.close();
}

afterEach(removeTempDirs);

describe('file store: the archive', () => {
  it('reads archived rows back after a checkpoint and after reopening, and keeps hot rows inline in the snapshot', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => {
      for (let i = 0; i < 50; i += 1) tx.put('cold', { id: `c${i}`, n: i, text: 'x'.repeat(i) });
      tx.put('hot', { id: 'h', n: 1 });
      tx.setMeta('m', 7);
    });
    await store.settled();
    const before = stateOf(store);
    await store.checkpoint();
    expect(stateOf(store)).toEqual(before);
    expect(store.get('cold', 'c7')).toEqual({ id: 'c7', n: 7, text: 'xxxxxxx' });
    // Read again, an archived row is the same object (answers cached per row rely on it) until it changes.
    expect(store.get('cold', 'c7')).toBe(store.get('cold', 'c7'));
    const read = store.get('cold', 'c7');
    store.transact((tx) => tx.put('cold', { id: 'c7', n: 70 }));
    expect(store.get('cold', 'c7')).not.toBe(read);
    expect(store.get('cold', 'c7')).toEqual({ id: 'c7', n: 70 });
    store.transact((tx) => tx.put('cold', { id: 'c7', n: 7, text: 'xxxxxxx' }));
    await store.close();

    const snapshot = JSON.parse(await readFile(path, 'utf8'));
    expect(snapshot.version).toBe(3);
    expect(snapshot.collections).toEqual({ cold: {}, hot: { h: { id: 'h', n: 1 } } });
    expect(snapshot.archive.file).toMatch(/^s\.json\.rows\.\d+$/);
    const archive = await readFile(join(dirname(path), snapshot.archive.file), 'utf8');
    expect(Buffer.byteLength(archive)).toBe(snapshot.archive.length);
    expect(archive.split('\n')[0]).toBe(frame('{"c":"cold","i":"c0","r":{"id":"c0","n":0,"text":""}}'));
    expect(journalEntries(await readFile(`${path}.journal`, 'utf8'))).toEqual([]);

    const again = await open(path);
    expect(stateOf(again)).toEqual(before);
    await again.close();
  });

  it('exports as the bytes of JSON.stringify(toSnapshot()), archived rows copied as archived, with any text around it', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => {
      // About 2 MB in all: the export is more than one chunk.
      for (let i = 0; i < 300; i += 1) tx.put('cold', { id: `c${i}`, n: i, text: `é${'x'.repeat(i * 45)}` });
      tx.put('hot', { id: 'h', n: 1 });
      tx.put('ledger', { id: 'g:1', n: 2, owner: 'g' });
      tx.setMeta('m', { deep: [1, 'two'] });
    });
    await store.checkpoint();
    store.transact((tx) => tx.put('cold', { id: 'c3', n: 33 }));
    const chunks = store.snapshotChunks('[', ']');
    expect(chunks.length).toBeGreaterThan(1);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toBe(`[${JSON.stringify(store.toSnapshot())}]`);
    expect(store.figures().archivedRows).toBeGreaterThan(290);
    await store.close();
  });

  it('a deleted archived row stays deleted, and one written again after its delete comes back', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => ['a', 'b', 'c'].forEach((id, n) => tx.put('cold', { id, n })));
    await store.checkpoint();
    store.transact((tx) => tx.delete('cold', 'a'));
    store.transact((tx) => tx.delete('cold', 'b'));
    store.transact((tx) => tx.put('cold', { id: 'b', n: 20 }));
    await store.checkpoint();
    await store.close();
    const again = await open(path);
    expect(again.all('cold')).toEqual([{ id: 'c', n: 2 }, { id: 'b', n: 20 }]);
    await again.close();
  });

  it('groups rows by the value of their group field, as transactions see them, across checkpoints and reopening', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => {
      tx.put('ledger', { id: 'l1', n: 1, owner: 'acct1' });
      tx.put('ledger', { id: 'l2', n: 2, owner: 'acct2' });
      tx.put('ledger', { id: 'l3', n: 3, owner: 'acct1' });
    });
    await store.checkpoint();
    expect(store.group('ledger', 'acct1').map((r) => r.n)).toEqual([1, 3]);
    const seen = store.transact((tx) => {
      tx.put('ledger', { id: 'l4', n: 4, owner: 'acct1' });
      tx.delete('ledger', 'l1');
      // A row written into another group leaves its old one.
      tx.put('ledger', { id: 'l3', n: 30, owner: 'acct2' });
      return [tx.group('ledger', 'acct1').map((r) => r.n), tx.group('ledger', 'acct2').map((r) => r.n)];
    });
    expect(seen).toEqual([[4], [2, 30]]);
    await store.close();
    const archive = await readFile(join(dirname(path), 's.json.rows.1'), 'utf8');
    expect(archive.split('\n')[0]).toBe(frame('{"c":"ledger","i":"l1","g":"acct1","r":{"id":"l1","n":1,"owner":"acct1"}}'));
    const again = await open(path);
    expect(again.group('ledger', 'acct1').map((r) => r.n)).toEqual([4]);
    expect(again.group('ledger', 'acct2').map((r) => r.n)).toEqual([2, 30]);
    expect(again.group('ledger', 'none')).toEqual([]);
    await again.close();
  });

  it('a checkpoint runs while transactions go on: every write acknowledged during it survives a crash right after', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => {
      for (let i = 0; i < 2000; i += 1) tx.put('cold', { id: `c${i}`, n: i, text: 'y'.repeat(200) });
    });
    const checkpoint = store.checkpoint();
    const acknowledged: Promise<void>[] = [];
    for (let i = 0; i < 200; i += 1) {
      store.transact((tx) => {
        tx.put('cold', { id: `c${i}`, n: -1 - i });
        tx.put('hot', { id: `h${i}`, n: i });
      });
      acknowledged.push(store.settled());
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(acknowledged);
    await checkpoint;
    // The checkpoint began before the first of these writes (its capture is synchronous), so the journal keeps them.
    const journal = await readFile(`${path}.journal`, 'utf8');
    expect(journal).toContain('"h0"');
    expect(journal).not.toContain('"c1999"');
    expect(store.get('cold', 'c5')).toEqual({ id: 'c5', n: -6 });
    expect(store.get('cold', 'c500')?.n).toBe(500);
    await expectCrashCopyToReopenAsIs(store, path);
    await store.close();
  });

  it('a checkpoint is not starved by a steady stream of durable writes: it finishes while they go on', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    let writing = true;
    let committed = 0;
    let written = 0;
    const acknowledged: Promise<void>[] = [];
    // A write on every turn of the event loop, each waited for: while one group of lines is being
    // flushed, the next group is already queued, so the journal is never idle.
    const write = () => {
      if (!writing) return;
      committed += 1;
      store.transact((tx) => tx.put('cold', { id: `k${committed % 100}`, n: committed }));
      acknowledged.push(store.settled().then(() => void (written += 1)));
      setImmediate(write);
    };
    write();
    while (written < 100) await new Promise((resolve) => setImmediate(resolve));
    await store.checkpoint();
    const writtenWhenDone = written;
    writing = false;
    await Promise.all(acknowledged);
    expect(writtenWhenDone).toBeLessThan(committed);
    await expectCrashCopyToReopenAsIs(store, path);
    await store.close();
  });

  it('one process at a time: a second open is refused naming the lock; a lock whose process is gone is taken over', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    const refused = await open(path).then(
      async (s) => (await s.close(), null),
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(StoreFileError);
    expect((refused as StoreFileError).file).toBe(`${path}.lock`);
    expect((refused as Error).message).toContain(`in use by process ${process.pid}`);
    await store.close();
    await expect(readFile(`${path}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });

    // A process that has exited leaves its id behind, as one killed mid-session would.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    await writeFile(`${path}.lock`, `${gone.pid}\n`);
    const taken = await open(path);
    expect(await readFile(`${path}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    await taken.close();
  });

  it('checkpoints by itself once the journal reaches its limit, while writes go on, and every acknowledged write survives a crash', async () => {
    const path = join(await tempDir(), 's.json');
    const { store } = await FileStore.open<Collections>(path, empty, { ...LAYOUT, checkpointAfterLines: 100 });
    for (let i = 0; i < 1000; i += 1) {
      store.transact((tx) => tx.put(i % 3 === 0 ? 'hot' : 'cold', { id: `r${i % 250}`, n: i }));
      if (i % 10 === 0) await store.settled();
    }
    await store.settled();
    // Files copied one by one are a crash's picture only while none of them is changing.
    while (store.figures().checkpointRunning) await new Promise((resolve) => setTimeout(resolve, 5));
    const figures = store.figures();
    // Without checkpoints the journal would hold 1,000 lines; each one cut it back to what came after it.
    expect(figures.journalLines).toBeLessThan(200);
    expect(figures.archivedRows).toBeGreaterThan(0);
    await expectCrashCopyToReopenAsIs(store, path);
    await store.close();
  });

  it('archive bytes past the length the snapshot names (a checkpoint cut short) are dropped on open', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => tx.put('cold', { id: 'a', n: 1 }));
    const expected = stateOf(store);
    await store.close();
    const snapshot = JSON.parse(await readFile(path, 'utf8'));
    const archivePath = join(dirname(path), snapshot.archive.file);
    await appendFile(archivePath, '{"c":"cold","i":"a","r":{"id":"a","n":999}}\n{"c":"cold","i":"zz","r":{"id":"zz","n');
    const again = await open(path);
    expect(stateOf(again)).toEqual(expected);
    await again.close();
    expect((await readFile(archivePath)).length).toBe(snapshot.archive.length);
  });

  it('rewrites the archive into a new generation, removes the old one, and removes generations a crash left uncommitted', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    for (let round = 0; round < 3; round += 1) {
      store.transact((tx) => {
        for (let i = 0; i < 20; i += 1) tx.put('cold', { id: `c${i}`, n: round * 100 + i });
      });
      await store.checkpoint();
    }
    const expected = stateOf(store);
    await store.checkpoint({ rewriteArchive: true });
    expect(stateOf(store)).toEqual(expected);
    await store.close();
    const files = (await readdir(dirname(path))).filter((f) => f.includes('.rows.'));
    expect(files).toHaveLength(1);
    const archive = await readFile(join(dirname(path), files[0]), 'utf8');
    expect(archive.trim().split('\n')).toHaveLength(20);

    await writeFile(join(dirname(path), 's.json.rows.99'), 'left by a crash');
    const again = await open(path);
    expect(stateOf(again)).toEqual(expected);
    await again.close();
    expect((await readdir(dirname(path))).filter((f) => f.includes('.rows.'))).toEqual(files);
  });

  it('refuses, naming it, an archive that is missing, shorter than the snapshot says, or not archive lines', async () => {
    const path = join(await tempDir(), 's.json');
    const store = await open(path);
    store.transact((tx) => tx.put('cold', { id: 'a', n: 1 }));
    await store.close();
    const snapshot = JSON.parse(await readFile(path, 'utf8'));
    const archivePath = join(dirname(path), snapshot.archive.file);
    const good = await readFile(archivePath);
    const refusal = async () => {
      const error = await open(path).then(
        async (s) => (await s.close(), null),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreFileError);
      expect((error as StoreFileError).file).toBe(archivePath);
      return (error as Error).message;
    };
    await writeFile(archivePath, good.subarray(0, 5));
    expect(await refusal()).toContain(`snapshot counts ${good.length}`);
    await writeFile(archivePath, Buffer.from('x'.repeat(good.length - 1) + '\n'));
    expect(await refusal()).toContain('line 1');
    await writeFile(archivePath, good);
    const reopened = await open(path);
    expect(reopened.get('cold', 'a')).toEqual({ id: 'a', n: 1 });
    await reopened.close();
  });

  it('property: any interleaving of writes, deletes, checkpoints, crashes and reopens matches a model of the committed state', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('put' as const), collection: fc.constantFrom('cold', 'hot', 'ledger'), key: fc.integer({ min: 0, max: 7 }), n: fc.integer() }),
      fc.record({ kind: fc.constant('delete' as const), collection: fc.constantFrom('cold', 'hot', 'ledger'), key: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('checkpoint' as const), rewrite: fc.boolean() }),
      fc.record({ kind: fc.constant('crash' as const) }),
      fc.record({ kind: fc.constant('reopen' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        let path = join(await tempDir(), 's.json');
        let store = await open(path);
        const model = new Map<string, Map<string, Item>>([['cold', new Map()], ['hot', new Map()], ['ledger', new Map()]]);
        const idOf = (collection: string, key: number) => (collection === 'ledger' ? `l${key}` : `k${key}`);
        for (const step of ops) {
          if (step.kind === 'put') {
            // A ledger row's group follows its value, so writing a row again can move it to the other group.
            const row = step.collection === 'ledger' ? { id: idOf(step.collection, step.key), n: step.n, owner: `g${Math.abs(step.n) % 2}` } : { id: idOf(step.collection, step.key), n: step.n };
            store.transact((tx) => tx.put(step.collection, row));
            model.get(step.collection)!.set(row.id, row);
          } else if (step.kind === 'delete') {
            const id = idOf(step.collection, step.key);
            store.transact((tx) => tx.delete(step.collection, id));
            model.get(step.collection)!.delete(id);
          } else if (step.kind === 'checkpoint') {
            await store.checkpoint({ rewriteArchive: step.rewrite });
          } else {
            await store.settled();
            if (step.kind === 'crash') {
              const copy = await crashCopy(path);
              await store.close();
              path = copy;
            } else await store.close();
            store = await open(path);
          }
          for (const [name, rows] of model) {
            const sorted = (items: Item[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
            expect(sorted(store.all(name as 'cold'))).toEqual(sorted([...rows.values()]));
          }
          for (const g of ['g0', 'g1']) {
            expect(store.group('ledger', g).map((r) => r.id).sort()).toEqual([...model.get('ledger')!.values()].filter((r) => r.owner === g).map((r) => r.id).sort());
          }
        }
        await store.close();
      }),
      { numRuns: 40 },
    );
  });
});
