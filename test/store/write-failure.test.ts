import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStore } from '../../sim/store/file-store.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { FailingDisk, isArchive, isJournal, isSnapshotTemporary } from './failing-disk.ts';

/**
 * Issue 14, points 1 and 2, through a disk that fills up on every machine (the
 * store's `fs` option): a write the disk refuses is answered 503 and taken back
 * in memory too; reads go on; writes resume by themselves; a checkpoint that
 * cannot be written leaves valid files; every acknowledged write survives.
 */

const NOT_SAVED = {
  error: { code: 'service_unavailable', message: 'The change could not be saved: the simulator could not write its store. Nothing was applied; try again later.' },
};

const dirs: string[] = [];
const open: TestSimulator[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.destroy().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function simulator(disk?: FailingDisk, dir?: string): Promise<TestSimulator> {
  const at = dir ?? (await mkdtemp(join(tmpdir(), 'understudy-write-failure-')));
  if (!dir) dirs.push(at);
  const s = await startSimulator({ dir: at, demo: false, storeFs: disk });
  open.push(s);
  return s;
}

async function stop(s: TestSimulator): Promise<void> {
  open.splice(open.indexOf(s), 1);
  await s.destroy();
}

async function newAccount(s: TestSimulator): Promise<string> {
  const r = await s.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } });
  expect(r.status).toBe(201);
  return r.body.account.id;
}

const deposit = (s: TestSimulator, accountId: string, amount: string) =>
  s.json({ method: 'POST', url: `/sim/accounts/${accountId}/deposits`, body: { profile: 'local_custody', amountAtomic: amount } });

/** What the store holds for the account: its deposits (from the archived ledger) and its deposited total. */
async function holdings(s: TestSimulator, accountId: string): Promise<{ deposits: string[]; deposited: string }> {
  const ledger = await s.json({ url: `/sim/accounts/${accountId}/ledger` });
  expect(ledger.status).toBe(200);
  const account = await s.json({ url: `/sim/accounts/${accountId}` });
  expect(account.status).toBe(200);
  const balance = account.body.balances.find((b: { profile: string }) => b.profile === 'local_custody');
  return {
    deposits: ledger.body.entries.filter((e: { kind: string }) => e.kind === 'deposit').map((e: { amountAtomic: string }) => e.amountAtomic),
    deposited: balance?.depositedAtomic ?? '0',
  };
}

const total = (amounts: string[]) => amounts.reduce((sum, a) => sum + BigInt(a), 0n).toString();

describe('a write the disk refuses', () => {
  it('is answered 503 with the error body, is not applied in memory, leaves no byte in the journal, and never comes back after a restart', async () => {
    const disk = new FailingDisk();
    const s = await simulator(disk);
    const accountId = await newAccount(s);
    const acknowledged: string[] = [];
    for (const amount of ['1000', '2000', '3000']) {
      expect((await deposit(s, accountId, amount)).status).toBe(201);
      acknowledged.push(amount);
    }
    const journal = `${s.storePath}.journal`;
    const before = (await stat(journal)).size;
    // Room for part of the next journal line: a short write, then ENOSPC.
    disk.fill(isJournal, 40);
    const refused = await deposit(s, accountId, '4000');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(NOT_SAVED);
    expect(disk.refusals).toBeGreaterThan(0);
    // Cut back to the last acknowledged line: the 40 bytes that reached the disk are gone.
    expect((await stat(journal)).size).toBe(before);
    // Reads keep working, and show what the disk holds.
    expect(await holdings(s, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
    // Still full: still refused, still nothing applied.
    expect((await deposit(s, accountId, '5000')).status).toBe(503);
    expect(await holdings(s, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
    // Space returns: writes resume without a restart.
    disk.free();
    expect((await deposit(s, accountId, '6000')).status).toBe(201);
    acknowledged.push('6000');
    // The line after the refusal follows the last good one directly (no hole, no stray bytes).
    const lines = (await readFile(journal, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(await holdings(s, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
    await stop(s);
    const again = await simulator(undefined, s.dir);
    expect(await holdings(again, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
  });

  it('answers every request queued behind the failing flush, and applies none of them', async () => {
    const disk = new FailingDisk();
    const s = await simulator(disk);
    const accountId = await newAccount(s);
    expect((await deposit(s, accountId, '7')).status).toBe(201);
    disk.fill(isJournal, 10);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => deposit(s, accountId, String(100 + i))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(503));
    for (const a of answers) expect(a.body).toEqual(NOT_SAVED);
    expect(await holdings(s, accountId)).toEqual({ deposits: ['7'], deposited: '7' });
    disk.free();
    expect((await deposit(s, accountId, '8')).status).toBe(201);
    await stop(s);
    const again = await simulator(undefined, s.dir);
    expect(await holdings(again, accountId)).toEqual({ deposits: ['7', '8'], deposited: '15' });
  });

  it('is refused the same way when the data reached the file but fdatasync fails (EIO)', async () => {
    const disk = new FailingDisk();
    const s = await simulator(disk);
    const accountId = await newAccount(s);
    expect((await deposit(s, accountId, '11')).status).toBe(201);
    const journal = `${s.storePath}.journal`;
    const before = (await stat(journal)).size;
    disk.affects = isJournal;
    disk.failSync = true;
    const refused = await deposit(s, accountId, '12');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(NOT_SAVED);
    expect((await stat(journal)).size).toBe(before);
    expect(await holdings(s, accountId)).toEqual({ deposits: ['11'], deposited: '11' });
    disk.free();
    expect((await deposit(s, accountId, '13')).status).toBe(201);
    await stop(s);
    const again = await simulator(undefined, s.dir);
    expect(await holdings(again, accountId)).toEqual({ deposits: ['11', '13'], deposited: '24' });
  });
});

describe('a checkpoint the disk refuses', () => {
  for (const [where, affects] of [
    ['the snapshot', isSnapshotTemporary],
    ['the archive', isArchive],
  ] as const) {
    it(`(ENOSPC writing ${where}) leaves the old files valid, serving goes on, and a stop on the full disk still keeps every acknowledged write`, async () => {
      const disk = new FailingDisk();
      const s = await simulator(disk);
      const accountId = await newAccount(s);
      const acknowledged: string[] = [];
      for (const amount of ['21', '22']) {
        expect((await deposit(s, accountId, amount)).status).toBe(201);
        acknowledged.push(amount);
      }
      disk.fill(affects, 100);
      const checkpoint = await s.json({ method: 'POST', url: '/sim/store/checkpoint' });
      expect(checkpoint.status).toBe(503);
      expect(checkpoint.body).toEqual(NOT_SAVED);
      expect(disk.refusals).toBeGreaterThan(0);
      // Writes (to the journal, which has room) and reads go on.
      expect((await deposit(s, accountId, '23')).status).toBe(201);
      acknowledged.push('23');
      expect(await holdings(s, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
      // The stop's own checkpoint fails the same way; the stop does not.
      await stop(s);
      // A failed snapshot write takes its temporary file with it.
      expect((await readdir(s.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      const again = await simulator(undefined, s.dir);
      expect(await holdings(again, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
      // And the store checkpoints normally once there is room.
      expect((await again.json({ method: 'POST', url: '/sim/store/checkpoint' })).status).toBe(200);
      await stop(again);
      const third = await simulator(undefined, s.dir);
      expect(await holdings(third, accountId)).toEqual({ deposits: acknowledged, deposited: total(acknowledged) });
    });
  }
});

describe('taking back refused changes in the store itself', () => {
  type Rows = { items: { id: string; v: number }; notes: { id: string; text: string } };
  const layout = { archived: ['items'], grouped: {} };
  const initial = () => ({ format: 'understudy-store' as const, version: 1 as const, seq: 0, meta: {}, collections: { items: {}, notes: {} } });

  it('gives archived rows, deletions and meta back exactly, and a reopen agrees with memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-write-failure-'));
    dirs.push(dir);
    const path = join(dir, 'store.json');
    const disk = new FailingDisk();
    const { store } = await FileStore.open<Rows>(path, initial, layout, { fs: disk });
    store.transact((tx) => {
      tx.put('items', { id: 'a', v: 1 });
      tx.put('items', { id: 'b', v: 2 });
      tx.put('notes', { id: 'n', text: 'kept' });
      tx.setMeta('counter', 1);
    });
    await store.settled();
    // a and b move to the archive: memory keeps only where they are.
    await store.checkpoint();
    expect(store.figures().archivedRows).toBe(2);
    disk.fill(isJournal);
    store.transact((tx) => {
      tx.put('items', { id: 'a', v: 100 });
      tx.delete('items', 'b');
      tx.put('items', { id: 'c', v: 3 });
      tx.delete('notes', 'n');
      tx.setMeta('counter', 2);
      tx.setMeta('added', true);
    });
    // A second transaction built on the first, queued behind it.
    store.transact((tx) => tx.put('notes', { id: 'm', text: `after ${tx.get('items', 'a')!.v}` }));
    await expect(store.settled()).rejects.toThrow(/could not be written/);
    const expected = { a: { id: 'a', v: 1 }, b: { id: 'b', v: 2 }, notes: [{ id: 'n', text: 'kept' }], counter: 1 };
    const seen = (s: FileStore<Rows>) => ({ a: s.get('items', 'a'), b: s.get('items', 'b'), notes: s.all('notes'), counter: s.getMeta('counter') });
    expect(seen(store)).toEqual(expected);
    expect(store.get('items', 'c')).toBeUndefined();
    expect(store.getMeta('added')).toBeUndefined();
    disk.free();
    // The tombstone of the taken-back delete must not reach the archive.
    store.transact((tx) => tx.put('notes', { id: 'z', text: 'z' }));
    await store.settled();
    await store.checkpoint();
    expect(await store.close()).toBeNull();
    const { store: reopened } = await FileStore.open<Rows>(path, initial, layout);
    expect(seen(reopened)).toEqual({ ...expected, notes: [{ id: 'n', text: 'kept' }, { id: 'z', text: 'z' }] });
    expect(reopened.get('items', 'c')).toBeUndefined();
    await reopened.close();
    // Only whole lines: no refused byte was left behind.
    const journal = await readFile(`${path}.journal`, 'utf8');
    expect(journal === '' || journal.endsWith('\n')).toBe(true);
  });
});
