import { appendFile, copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSimulator } from '../../sim/app.ts';
import { hashSecret } from '../../sim/domain/keys/index.ts';
import { StoreFileError } from '../../sim/store/file-store.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { createAccount, createKey, simulatorsPerTest, storeFiles, tempDir } from './support.ts';
import { journalEntries } from '../helpers/journal.ts';

const start = simulatorsPerTest();

/** A copy of a running simulator's store files (snapshot, journal, archive), as a crash would leave them. */
async function crashCopy(sim: TestSimulator): Promise<string> {
  await sim.sim.deps.store.settled();
  const dir = await tempDir();
  const storePath = join(dir, 'store.json');
  for (const name of await readdir(dirname(sim.storePath))) {
    // Not the lock: after a real crash its process is gone (and is taken over); here it is this one.
    if (name.startsWith(basename(sim.storePath)) && !name.endsWith('.lock')) await copyFile(join(dirname(sim.storePath), name), join(dir, name.replace(basename(sim.storePath), 'store.json')));
  }
  return storePath;
}

async function expectStoreFileError(storePath: string, file: string): Promise<StoreFileError> {
  let caught: unknown;
  try {
    const built = await buildSimulator({ storePath, clock: 'frozen', seed: 1, limits: false });
    await built.close();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StoreFileError);
  const error = caught as StoreFileError;
  expect(error.file).toBe(file);
  expect(error.message).toContain(file);
  return error;
}

describe('file store: durability', () => {
  it('keeps a committed change across close and reopen', async () => {
    const dir = await tempDir();
    const first = await startSimulator({ dir });
    const secret = first.secret('solana_sol');
    const id = await createAccount(first, 'evm', 'kept');
    const deposit = await first.json({ method: 'POST', url: `/sim/accounts/${id}/deposits`, body: { profile: 'local_custody', amountAtomic: '12345' } });
    expect(deposit.status).toBe(201);
    const before = await first.json({ url: `/sim/accounts/${id}` });
    await first.close();

    const second = await start({ dir });
    expect(second.sim.created).toBe(false);
    expect(second.demo).toEqual([]);
    const after = await second.json({ url: `/sim/accounts/${id}` });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(after.body.balances[0]).toMatchObject({ profile: 'local_custody', depositedAtomic: '12345', availableAtomic: '12345' });
    // The demo key made before the restart still authenticates.
    expect((await second.json({ url: '/v1/buyer/key', key: secret })).status).toBe(200);
  });

  it('has a change on disk (snapshot + journal) as soon as the mutating request has answered', async () => {
    const sim = await start();
    const id = await createAccount(sim, 'solana', 'on disk');
    // Read the files right away: no close, no flush, no wait.
    const { snapshot, journal } = await storeFiles(sim.storePath);
    const onDisk = snapshot.toString('utf8') + journal.toString('utf8');
    expect(onDisk).toContain(id);
    expect(journal.toString('utf8')).toContain(id);
    const lines = journal.toString('utf8').split('\n');
    expect(lines.at(-1)).toBe(''); // every journal line is complete
    const entry = JSON.parse(lines.find((l) => l.includes(id))!);
    expect(entry.o).toContainEqual(['accounts', id, expect.objectContaining({ id, type: 'solana', label: 'on disk' })]);

    const { key } = await createKey(sim, id, { profile: 'solana_sol', spendLimitAtomic: '10' });
    const journalAfterKey = (await storeFiles(sim.storePath)).journal.toString('utf8');
    expect(journalAfterKey).toContain(key.id);
  });

  it('recovers every acknowledged change from the journal after a crash (no close)', async () => {
    const sim = await start();
    const id = await createAccount(sim, 'solana', 'crash');
    await sim.json({ method: 'POST', url: `/sim/accounts/${id}/deposits`, body: { profile: 'solana_usdc', amountAtomic: '777' } });
    const expected = await sim.json({ url: `/sim/accounts/${id}` });
    const copy = await crashCopy(sim);

    const recovered = await start({ storePath: copy, dir: join(copy, '..') });
    const view = await recovered.json({ url: `/sim/accounts/${id}` });
    expect(view.status).toBe(200);
    expect(view.body).toEqual(expected.body);
  });

  it('ignores a torn final journal line and keeps the rest; later writes still load', async () => {
    const sim = await start();
    // Multi-byte text before the tear: the cut must be at the right byte, not character.
    const id = await createAccount(sim, 'evm', 'Zoë 🚀 before tear');
    const copy = await crashCopy(sim);
    const journalBefore = await readFile(`${copy}.journal`, 'utf8');
    const torn = '{"s":99999,"o":[["accounts","torn-account",{"id":"torn-account","label":"ñ🚀';
    await appendFile(`${copy}.journal`, torn);

    const dir = join(copy, '..');
    const reopened = await start({ storePath: copy, dir });
    expect((await reopened.json({ url: `/sim/accounts/${id}` })).status).toBe(200);
    expect(reopened.sim.deps.store.get('accounts', 'torn-account')).toBeUndefined();
    // The torn tail is cut off, so the next line does not glue onto it.
    expect(await readFile(`${copy}.journal`, 'utf8')).toBe(journalBefore);
    expect((await reopened.json({ url: `/sim/accounts/${id}` })).body.account.label).toBe('Zoë 🚀 before tear');
    const later = await createAccount(reopened, 'solana', 'after tear');
    const copyAgain = await crashCopy(reopened);
    const third = await start({ storePath: copyAgain, dir: join(copyAgain, '..') });
    expect((await third.json({ url: `/sim/accounts/${id}` })).status).toBe(200);
    expect((await third.json({ url: `/sim/accounts/${later}` })).status).toBe(200);
  });
});

describe('file store: concurrent writes', () => {
  it('acknowledges concurrent changes only once all are on disk (group commit)', async () => {
    const sim = await start({ demo: false });
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => sim.json({ method: 'POST', url: '/sim/accounts', body: { type: i % 2 ? 'evm' : 'solana', label: `c${i}` } })));
    const ids = responses.map((r) => {
      expect(r.status).toBe(201);
      return r.body.account.id as string;
    });
    expect(new Set(ids).size).toBe(40);
    const journal = (await storeFiles(sim.storePath)).journal.toString('utf8');
    for (const id of ids) expect(journal).toContain(id);
    const copy = await crashCopy(sim);
    const recovered = await start({ dir: join(copy, '..') });
    expect(recovered.sim.deps.store.count('accounts')).toBe(40);
  });
});

describe('file store: refusing unreadable files', () => {
  it('refuses a corrupt middle journal line, naming the journal, and leaves both files untouched', async () => {
    const sim = await start();
    await createAccount(sim, 'solana');
    await createAccount(sim, 'evm');
    const copy = await crashCopy(sim);
    const lines = (await readFile(`${copy}.journal`, 'utf8')).split('\n');
    expect(lines.length).toBeGreaterThan(3);
    lines[1] = 'this is not json';
    await writeFile(`${copy}.journal`, lines.join('\n'));
    const before = await storeFiles(copy);

    const error = await expectStoreFileError(copy, `${copy}.journal`);
    expect(error.message).toMatch(/line 2/);
    const after = await storeFiles(copy);
    expect(after.snapshot.equals(before.snapshot)).toBe(true);
    expect(after.journal.equals(before.journal)).toBe(true);
  });

  it('refuses a journal line that is JSON but not a journal entry', async () => {
    const sim = await start();
    const copy = await crashCopy(sim);
    const lines = (await readFile(`${copy}.journal`, 'utf8')).split('\n');
    lines[0] = '{"hello":"world"}';
    await writeFile(`${copy}.journal`, lines.join('\n'));
    const before = await storeFiles(copy);
    await expectStoreFileError(copy, `${copy}.journal`);
    const after = await storeFiles(copy);
    expect(after.journal.equals(before.journal)).toBe(true);
  });

  const badSnapshots: Array<[string, string]> = [
    ['empty', ''],
    ['not JSON', '{"format":"understudy-store", "version": 1, '],
    ['JSON null', 'null'],
    ['another format', JSON.stringify({ format: 'something-else', version: 1, seq: 0, meta: {}, collections: {} })],
    ['an unknown version', JSON.stringify({ format: 'understudy-store', version: 3, seq: 0, meta: {}, collections: {} })],
    ['missing collections', JSON.stringify({ format: 'understudy-store', version: 1, seq: 0, meta: {} })],
  ];
  it.each(badSnapshots)('refuses a store.json that is %s, naming it, and leaves it untouched', async (_what, text) => {
    const dir = await tempDir();
    const storePath = join(dir, 'store.json');
    await writeFile(storePath, text);
    await expectStoreFileError(storePath, storePath);
    expect(await readFile(storePath, 'utf8')).toBe(text);
    await expect(stat(`${storePath}.journal`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a store path that is a directory, naming it', async () => {
    const dir = await tempDir();
    const storePath = join(dir, 'store.json');
    await mkdir(storePath);
    await expectStoreFileError(storePath, storePath);
    expect((await stat(storePath)).isDirectory()).toBe(true);
  });

  it('refuses a journal path that is a directory, naming it', async () => {
    const sim = await start();
    const copy = await crashCopy(sim);
    await rm(`${copy}.journal`);
    await mkdir(`${copy}.journal`);
    const before = await readFile(copy);
    await expectStoreFileError(copy, `${copy}.journal`);
    expect((await readFile(copy)).equals(before)).toBe(true);
  });

  it('refuses a journal whose snapshot is missing', async () => {
    const sim = await start();
    const copy = await crashCopy(sim);
    const journal = await readFile(`${copy}.journal`);
    await rm(copy);
    await expectStoreFileError(copy, copy);
    expect((await readFile(`${copy}.journal`)).equals(journal)).toBe(true);
    await expect(stat(copy)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('file store: secrets and refusals', () => {
  it('never holds a key secret, only its sha256 hash', async () => {
    const sim = await start();
    const account = await createAccount(sim, 'evm');
    const extra = await createKey(sim, account, { profile: 'local_custody', spendLimitAtomic: '1', name: 'extra' });
    const secrets = [...sim.demo.map((d) => d.secret), extra.secret];
    expect(secrets).toHaveLength(5);
    // Use every key once so telemetry has something to save too.
    for (const secret of secrets) expect((await sim.json({ url: '/v1/buyer/key', key: secret })).status).toBe(200);

    const check = async () => {
      const { snapshot, journal } = await storeFiles(sim.storePath);
      const text = snapshot.toString('utf8') + '\n' + journal.toString('utf8');
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice('svc_test_'.length));
        expect(text).toContain(hashSecret(secret));
      }
    };
    await check(); // while running (journal)
    await sim.close();
    await check(); // after a checkpoint (snapshot and archive)
    expect(journalEntries((await storeFiles(sim.storePath)).journal)).toEqual([]);
  });

  it('a refused request changes nothing on disk or in the account', async () => {
    const sim = await start();
    const solana = await createAccount(sim, 'solana', 'refusals');
    await sim.json({ method: 'POST', url: `/sim/accounts/${solana}/deposits`, body: { profile: 'solana_sol', amountAtomic: '5' } });
    const viewBefore = await sim.json({ url: `/sim/accounts/${solana}` });
    const keysBefore = await sim.json({ url: `/sim/accounts/${solana}/keys` });
    const filesBefore = await storeFiles(sim.storePath);

    const refusals = [
      { url: `/sim/accounts/${solana}/deposits`, body: { profile: 'local_custody', amountAtomic: '100' }, status: 400 },
      { url: `/sim/accounts/${solana}/deposits`, body: { profile: 'solana_sol', amountAtomic: '01' }, status: 400 },
      { url: `/sim/accounts/${solana}/deposits`, body: { profile: 'solana_sol', amountAtomic: '0' }, status: 400 },
      { url: `/sim/accounts/${solana}/deposits`, body: { profile: 'solana_sol', amountAtomic: 100 }, status: 400 },
      { url: `/sim/accounts/00000000-0000-4000-8000-000000000000/deposits`, body: { profile: 'solana_sol', amountAtomic: '1' }, status: 404 },
      { url: `/sim/accounts/${solana}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1' }, status: 400 },
      { url: `/sim/accounts/${solana}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1', scopes: ['monitors:read'] }, status: 400 },
    ];
    for (const refusal of refusals) {
      const response = await sim.json({ method: 'POST', url: refusal.url, body: refusal.body });
      expect(response.status, JSON.stringify(refusal)).toBe(refusal.status);
      expect(response.body.error.code).toBeTypeOf('string');
    }

    const filesAfter = await storeFiles(sim.storePath);
    expect(filesAfter.snapshot.equals(filesBefore.snapshot)).toBe(true);
    expect(filesAfter.journal.equals(filesBefore.journal)).toBe(true);
    expect((await sim.json({ url: `/sim/accounts/${solana}` })).body).toEqual(viewBefore.body);
    expect((await sim.json({ url: `/sim/accounts/${solana}/keys` })).body).toEqual(keysBefore.body);
  });
});
