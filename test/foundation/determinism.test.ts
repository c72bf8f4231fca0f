import { readFile } from 'node:fs/promises';
import type { Collections } from '../../sim/domain/collections.ts';
import { STORE_LAYOUT } from '../../sim/store/layout.ts';
import { FileStore } from '../../sim/store/file-store.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { removeTempDirs, tempDir } from './support.ts';
import { journalEntries } from '../helpers/journal.ts';

afterEach(removeTempDirs);

type Call = { method?: string; url: string; key?: string; body?: unknown };

/** Runs requests, recording each answer's status and raw body bytes. */
function recorder(sim: TestSimulator) {
  const transcript: string[] = [];
  const call = async (options: Call) => {
    const response = await sim.request(options);
    transcript.push(`${options.method ?? 'GET'} ${options.url} -> ${response.statusCode} ${response.body}`);
    return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined };
  };
  return { transcript, call };
}

/** The first half of the script: accounts, deposits, keys, reads. */
async function partOne(sim: TestSimulator, call: ReturnType<typeof recorder>['call']) {
  const solana = (await call({ method: 'POST', url: '/sim/accounts', body: { type: 'solana', label: 'det solana' } })).body.account.id;
  const evm = (await call({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } })).body.account.id;
  await call({ method: 'POST', url: `/sim/accounts/${solana}/deposits`, body: { profile: 'solana_sol', amountAtomic: '5000000000' } });
  await call({ method: 'POST', url: `/sim/accounts/${solana}/deposits`, body: { profile: 'solana_usdc', amountAtomic: '42' } });
  await call({ method: 'POST', url: `/sim/accounts/${evm}/deposits`, body: { profile: 'local_custody', amountAtomic: '1000000000000000000' } });
  await call({ method: 'POST', url: `/sim/accounts/${evm}/deposits`, body: { profile: 'sim', amountAtomic: '9' } });
  // A refused change in the middle must not shift what follows.
  await call({ method: 'POST', url: `/sim/accounts/${evm}/deposits`, body: { profile: 'solana_sol', amountAtomic: '9' } });
  const k1 = (await call({ method: 'POST', url: `/sim/accounts/${solana}/keys`, body: { profile: 'solana_usdc', spendLimitAtomic: '100', name: 'k1', expiresInDays: 2 } })).body;
  const k2 = (
    await call({
      method: 'POST',
      url: `/sim/accounts/${evm}/keys`,
      body: { profile: 'local_custody', spendLimitAtomic: '7', scopes: ['monitors:read', 'monitors:write', 'runs:read'], rateLimitPerMinute: 5 },
    })
  ).body;
  await call({ url: '/v1/buyer/key', key: k1.secret });
  await call({ url: '/v1/buyer/key', key: k2.secret });
  await call({ url: '/v1/buyer/key', key: sim.secret('solana_sol') });
  await call({ url: '/v1/capabilities', key: sim.secret('sim') });
  await call({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 3600 } });
  return { solana, evm, k1, k2 };
}

/** The second half: revocation, expiry, reads of everything. */
async function partTwo(sim: TestSimulator, call: ReturnType<typeof recorder>['call'], ids: Awaited<ReturnType<typeof partOne>>) {
  await call({ method: 'POST', url: `/sim/keys/${ids.k2.key.id}/revoke` });
  await call({ url: '/v1/buyer/key', key: ids.k2.secret });
  await call({ url: '/v1/buyer/key', key: ids.k1.secret });
  await call({ method: 'POST', url: '/sim/clock/advance', body: { next: true } });
  await call({ url: '/v1/buyer/key', key: ids.k1.secret });
  const later = (await call({ method: 'POST', url: '/sim/accounts', body: { type: 'solana', label: 'later' } })).body.account.id;
  await call({ method: 'POST', url: `/sim/accounts/${later}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '3' } });
  await call({ url: `/sim/accounts/${ids.solana}` });
  await call({ url: `/sim/accounts/${ids.evm}` });
  await call({ url: `/sim/accounts/${ids.solana}/keys` });
  await call({ url: `/sim/accounts/${ids.evm}/keys` });
  await call({ url: '/sim/accounts' });
  await call({ url: '/sim/requests' });
  await call({ url: '/sim/clock' });
}

async function runScript(seed: number) {
  const dir = await tempDir();
  const sim = await startSimulator({ dir, seed });
  const { transcript, call } = recorder(sim);
  const ids = await partOne(sim, call);
  await partTwo(sim, call, ids);
  await sim.close();
  return { transcript, demo: sim.demo, store: await readFile(sim.storePath), journal: await readFile(`${sim.storePath}.journal`), state: await storedState(sim.storePath) };
}

/** What a closed store holds, every row read back (from the snapshot or the archive). */
async function storedState(storePath: string) {
  const { store } = await FileStore.open<Collections>(storePath, () => {
    throw new Error(`${storePath} should exist`);
  }, STORE_LAYOUT);
  const { meta, collections } = store.toSnapshot();
  await store.close();
  return { meta, collections };
}

describe('determinism', () => {
  it('the same seed and the same requests give byte-identical answers and store', async () => {
    const a = await runScript(42);
    const b = await runScript(42);
    expect(a.transcript.length).toBeGreaterThan(25);
    // The script did real work: ids, secrets, refusals.
    expect(a.transcript.join('\n')).toMatch(/svc_test_[A-Za-z0-9_-]{43}/);
    expect(a.transcript.some((line) => / -> 400 /.test(line))).toBe(true);
    expect(a.transcript.some((line) => / -> 401 /.test(line))).toBe(true);
    expect(b.demo).toEqual(a.demo);
    for (let i = 0; i < a.transcript.length; i += 1) expect(b.transcript[i]).toBe(a.transcript[i]);
    expect(b.transcript).toHaveLength(a.transcript.length);
    expect(journalEntries(a.journal)).toEqual([]);
    expect(b.store.equals(a.store)).toBe(true);
  });

  it('a different seed gives different ids and secrets', async () => {
    const a = await runScript(42);
    const b = await runScript(43);
    const accountIds = (t: string[]) => t.filter((l) => l.startsWith('POST /sim/accounts ->')).map((l) => JSON.parse(l.slice(l.indexOf('{'))).account.id);
    expect(accountIds(a.transcript)).toHaveLength(3);
    for (const id of accountIds(a.transcript)) expect(accountIds(b.transcript)).not.toContain(id);
    expect(b.demo.map((d) => d.secret)).not.toEqual(a.demo.map((d) => d.secret));
    expect(b.demo.map((d) => d.keyId)).not.toEqual(a.demo.map((d) => d.keyId));
    expect(b.store.equals(a.store)).toBe(false);
  });

  it('a restart in the middle continues the same stream (same answers as without the restart)', async () => {
    const straight = await runScript(7);

    const dir = await tempDir();
    const first = await startSimulator({ dir, seed: 7 });
    const one = recorder(first);
    const ids = await partOne(first, one.call);
    await first.close();
    // The seed passed on reopening does not matter: the store carries its own.
    const second = await startSimulator({ dir, seed: 999 });
    const two = recorder(second);
    await partTwo(second, two.call, ids);
    await second.close();

    expect(first.demo).toEqual(straight.demo);
    expect([...one.transcript, ...two.transcript]).toEqual(straight.transcript);
    // The same state; the files differ in layout only (the restart checkpointed part one's rows separately).
    expect(await storedState(second.storePath)).toEqual(straight.state);
  });
});
