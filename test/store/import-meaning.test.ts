import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 29 point 2: an imported store is checked for what it means before
 * anything is replaced. Each document below is well-formed and would load, but
 * says something the simulator's own writes never could; each is refused with
 * 400 naming the first inconsistency, and the simulator is exactly as before.
 */

let dir: string;
let t: TestSimulator;
let exported: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-import-meaning-'));
  t = await startSimulator({ dir });
  const evm = t.demo.find((d) => d.profile === 'local_custody')!.accountId;
  await t.json({ method: 'POST', url: `/sim/accounts/${evm}/deposits`, body: { profile: 'local_custody', amountAtomic: '700' } });
  await t.json({ method: 'POST', url: `/sim/accounts/${evm}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '100', expiresInDays: 3 } });
  exported = (await t.request({ url: '/sim/snapshot' })).body;
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const put = (body: string) => t.request({ method: 'PUT', url: '/sim/snapshot', headers: { 'content-type': 'application/json' }, body });
const anyId = (rows: Record<string, unknown>) => Object.keys(rows)[0];

describe('PUT /sim/snapshot refuses a store whose parts disagree, changing nothing', () => {
  const cases: Array<[string, (doc: any) => void, (doc: any) => string]> = [
    [
      'funded balances without ledger entries',
      (d) => (d.store.collections.ledgerEntries = {}),
      (d) => {
        const funded = Object.values(d.store.collections.balances as Record<string, any>).find((b) => b.depositedAtomic !== '0');
        return `body: 'store.collections.balances.${funded.id}.depositedAtomic' is ${funded.depositedAtomic}, but the store holds no ledger entries of this balance.`;
      },
    ],
    [
      'a balance the ledger does not add up to',
      (d) => {
        const balance = Object.values(d.store.collections.balances as Record<string, any>).find((b) => b.depositedAtomic !== '0');
        balance.depositedAtomic = String(BigInt(balance.depositedAtomic) + 5n);
        balance.availableAtomic = String(BigInt(balance.availableAtomic) + 5n);
      },
      (d) => {
        const balance = Object.values(d.store.collections.balances as Record<string, any>).find((b) => b.depositedAtomic !== '0');
        return `body: 'store.collections.balances.${balance.id}.depositedAtomic' is ${BigInt(balance.depositedAtomic) + 5n}, but the deposits in the ledger add up to ${balance.depositedAtomic}.`;
      },
    ],
    ['an unknown clock mode', (d) => (d.clock.mode = 'sideways'), () => `body: 'clock.mode' must be one of "realtime", "frozen".`],
    ['an unknown clock mode in the store', (d) => (d.store.meta.clock = { mode: 'paused', valueMs: 0 }), () => `body: 'store.meta.clock.mode' must be one of "realtime", "frozen".`],
    [
      'a key of a missing account',
      (d) => (d.store.collections.keys[anyId(d.store.collections.keys)].accountId = '00000000-0000-4000-8000-00000000dead'),
      (d) => `body: 'store.collections.keys.${anyId(d.store.collections.keys)}.accountId' names no row of accounts.`,
    ],
    [
      'a job of an unknown kind',
      (d) => (d.store.collections.jobs = { j: { id: 'j', dueAtMs: 1, seq: 1, kind: 'coffee.brew', ref: 'x' } }),
      () => `body: 'store.collections.jobs.j.kind' must be one of`,
    ],
    ['an account of an unknown type', (d) => (d.store.collections.accounts[anyId(d.store.collections.accounts)].type = 'bitcoin'), (d) => `body: 'store.collections.accounts.${anyId(d.store.collections.accounts)}.type' must be one of "solana", "evm".`],
    [
      'a ledger counter behind its entries',
      (d) => (d.store.meta.ledgerSeq = 0),
      () => `body: 'store.meta.ledgerSeq' is 0, below the ledger's highest entry sequence`,
    ],
  ];

  for (const [what, edit, message] of cases) {
    it(`refuses ${what} with 400 naming it; the export is unchanged`, async () => {
      const before = (await t.request({ url: '/sim/snapshot' })).body;
      const doc = JSON.parse(exported);
      edit(doc);
      const response = await put(JSON.stringify(doc));
      expect(response.statusCode, response.body).toBe(400);
      const { error } = JSON.parse(response.body);
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(message(JSON.parse(exported)));
      expect((await t.request({ url: '/sim/snapshot' })).body).toBe(before);
    });
  }

  it('takes the export itself, and the simulator keeps answering from it', async () => {
    const response = await put(exported);
    expect(response.statusCode, response.body).toBe(200);
    const evm = t.demo.find((d) => d.profile === 'local_custody')!.accountId;
    expect((await t.json({ url: `/sim/accounts/${evm}` })).body.balances.find((b: any) => b.profile === 'local_custody').depositedAtomic).not.toBe('0');
  });
});
