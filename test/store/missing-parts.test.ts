import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSimulator } from '../../sim/app.ts';
import { frame } from '../../sim/store/checksum.ts';
import { FileStore, StoreFileError } from '../../sim/store/file-store.ts';
import { journalHeader } from '../../sim/store/journal.ts';
import { startSimulator } from '../helpers/simulator.ts';
import { copyStore, filesOf, openingError, openStore, removeTempDirs, stateOf, tempDir } from './support.ts';

/**
 * Issue 14.4: a store whose parts do not agree is refused, naming them, and no
 * file is changed before the whole store has been checked; what a checkpoint
 * cut short left is cleaned up only then, and only what the checked snapshot
 * proves was never committed.
 */

afterEach(removeTempDirs);

async function expectRefused(path: string, file: string, message: RegExp): Promise<void> {
  const before = await filesOf(path);
  const error = await openingError(path);
  expect(error).toBeInstanceOf(StoreFileError);
  expect(await filesOf(path)).toEqual(before);
  expect(error!.file).toBe(file);
  expect(error!.message).toMatch(message);
}

/** A store with rows in its archive and acknowledged changes in its journal, as a crash leaves it. */
async function crashedStore(): Promise<{ path: string; state: ReturnType<typeof stateOf> }> {
  const path = join(await tempDir(), 's.json');
  const store = await openStore(path);
  store.transact((tx) => {
    for (let i = 0; i < 6; i += 1) tx.put('cold', { id: `c${i}`, n: i });
  });
  await store.checkpoint();
  store.transact((tx) => tx.put('hot', { id: 'h', n: 1 }));
  store.transact((tx) => tx.put('cold', { id: 'c9', n: 9 }));
  await store.settled();
  const state = stateOf(store);
  const copy = await copyStore(path);
  await store.close();
  return { path: copy, state };
}

describe('store: missing or disagreeing parts', () => {
  it('store.json deleted after a clean stop is refused, naming the journal and the archive; no new store is made beside them', async () => {
    const dir = await tempDir();
    const first = await startSimulator({ dir });
    const account = (await first.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } })).body.account.id as string;
    expect((await first.json({ method: 'POST', url: `/sim/accounts/${account}/deposits`, body: { profile: 'local_custody', amountAtomic: '500' } })).status).toBe(201);
    await first.close();
    const storePath = join(dir, 'store.json');
    await rm(storePath);
    const before = await filesOf(storePath);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['store.json.journal', 'store.json.rows.1']));

    const refused = await buildSimulator({ storePath, clock: 'frozen', seed: 1, limits: false }).then(
      async (built) => (await built.close(), new Error('a new store was made')),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StoreFileError);
    expect((refused as StoreFileError).file).toBe(storePath);
    expect((refused as Error).message).toContain(`${storePath}.journal`);
    expect((refused as Error).message).toContain(`${storePath}.rows.1`);
    expect(await filesOf(storePath)).toEqual(before);
  });

  it('an archive left without its snapshot (even beside an empty journal) is refused, naming it', async () => {
    const { path } = await crashedStore();
    await rm(path);
    await writeFile(`${path}.journal`, '');
    await expectRefused(path, path, /it is missing, but .*s\.json\.rows\.\d+ holds a store's data/);
    await rm(`${path}.journal`);
    await expectRefused(path, path, /it is missing, but .*s\.json\.rows\.\d+ holds a store's data/);
  });

  it('what a store being created left (a journal of generation 0 with no entries, an archive) is replaced by a new store', async () => {
    const path = join(await tempDir(), 's.json');
    await writeFile(`${path}.journal`, journalHeader(0, 0));
    await writeFile(`${path}.rows.1`, 'cut short\n');
    const { store, created } = await FileStore.open(path, () => ({ format: 'understudy-store', version: 1, seq: 0, meta: { fresh: true }, collections: {} }));
    expect(created).toBe(true);
    expect(store.getMeta('fresh')).toBe(true);
    await store.close();
    expect(await readFile(`${path}.rows.1`, 'utf8')).toBe('');
  });

  it('a journal cut after acknowledged changes (at a line boundary, or into its last line) is refused, naming it and the last acknowledged change', async () => {
    for (const cut of ['line', 'byte'] as const) {
      const { path } = await crashedStore();
      const journal = `${path}.journal`;
      const bytes = await readFile(journal);
      // Without its last acknowledged line the journal looks as a crash before that write would leave it.
      const lastLine = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
      await writeFile(journal, bytes.subarray(0, cut === 'line' ? lastLine : bytes.length - 5));
      await expectRefused(path, journal, /ends at change \d+, but s\.json\.acknowledged records change \d+ as acknowledged/);
    }
  });

  it('a write never acknowledged (a torn tail, the witness not yet told) still opens with what was acknowledged', async () => {
    const { path, state } = await crashedStore();
    await appendFile(`${path}.journal`, '{"s":99,"o":[["hot","h",{"id":"h","n":');
    const store = await openStore(path);
    expect(stateOf(store)).toEqual(state);
    await store.close();
  });

  it('the record of the last acknowledged change is checked too: a damaged one is refused, naming it', async () => {
    const { path } = await crashedStore();
    const witness = `${path}.acknowledged`;
    const bytes = await readFile(witness);
    bytes[5] ^= 0x01;
    await writeFile(witness, bytes);
    await expectRefused(path, witness, /does not match its checksum/);
  });

  it('a journal deleted after a clean stop is refused, naming it', async () => {
    const { path } = await crashedStore();
    const stopped = await openStore(path);
    await stopped.close();
    await rm(`${path}.journal`);
    await expectRefused(path, `${path}.journal`, /it is missing, but the snapshot s\.json expects journal \d+ to follow it/);
  });

  it('a wrong archive length in the snapshot never changes the archive: refused, naming the snapshot or the archive', async () => {
    const { path } = await crashedStore();
    const original = await readFile(path, 'utf8');
    const document = JSON.parse(original);
    delete document.crc;
    const archive = join(path, '..', document.archive.file);
    const lines = (await readFile(archive, 'utf8')).split('\n');
    const length = document.archive.length;
    // Shorter, at a line boundary (what a checkpoint cut short would also leave): checksum not made to match.
    const shorter = Buffer.byteLength(lines.slice(0, 3).join('\n')) + 1;
    await writeFile(path, original.replace(`"length":${length}`, `"length":${shorter}`));
    await expectRefused(path, path, /does not match its checksum/);
    // Made to match: the archive's checksum, recorded beside the length, tells.
    await writeFile(path, frame(JSON.stringify({ ...document, archive: { ...document.archive, length: shorter } })));
    await expectRefused(path, archive, new RegExp(`its ${shorter} committed bytes do not match the checksum the snapshot records`));
    await writeFile(path, frame(JSON.stringify({ ...document, archive: { ...document.archive, length: length + 10 } })));
    await expectRefused(path, archive, new RegExp(`it holds ${length} bytes but the snapshot counts ${length + 10}`));
  });

  it('nothing is changed before the whole store is checked: an uncommitted archive tail and a stray generation stay when the journal is refused', async () => {
    const { path, state } = await crashedStore();
    const document = JSON.parse(await readFile(path, 'utf8'));
    const archive = join(path, '..', document.archive.file);
    const committed = await readFile(archive);
    // What a checkpoint cut short leaves: lines past the committed length, and a new generation never named.
    await appendFile(archive, `${frame('{"c":"cold","i":"c0","r":{"id":"c0","n":999}}')}\n{"c":"cold","i":"zz"`);
    await writeFile(`${path}.rows.7`, `${frame('{"c":"cold","i":"c1","r":{"id":"c1","n":999}}')}\n`);
    const journal = await readFile(`${path}.journal`, 'utf8');
    const lines = journal.split('\n');
    lines[lines.length - 2] = 'not a journal line';
    await writeFile(`${path}.journal`, lines.join('\n'));
    await expectRefused(path, `${path}.journal`, /line \d+ \(byte \d+\) has no checksum/);

    // Once the journal is whole again, the store opens, and only then are the leftovers cleaned up.
    await writeFile(`${path}.journal`, journal);
    const store = await openStore(path);
    expect(stateOf(store)).toEqual(state);
    expect(await readFile(archive)).toEqual(committed);
    expect((await readdir(join(path, '..'))).filter((name) => name.includes('.rows.'))).toEqual([document.archive.file]);
    await store.close();
  });
});
