import { afterEach, describe, expect, it } from 'vitest';
import { CREATOR_TEST_LISTING_ID, WORKFLOW_LISTING_ID } from '../../fixtures/listings/index.ts';
import { transact } from '../../sim/domain/context.ts';
import type { TestSimulator } from '../helpers/simulator.ts';
import { buy, MSG, RAIL, stopAll, start, untilEnded, type Purchase } from './support.ts';

/**
 * Spec 5 and 4.6: a key sees only paid runs of its own account in its own
 * asset (anything else is 404), and run, billing, receipt and export reads of
 * a listing outside the key's allowed list are 403.
 */
afterEach(stopAll);

const READ_SCOPES = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read'];

/** Every read of a run by `key`, on the rail of `rail`. */
async function readsOf(s: TestSimulator, p: Purchase, key: string, rail = RAIL[p.profile]) {
  return {
    run: await s.json({ url: `/v1/runs/${p.run.id}`, key }),
    billing: await s.json({ url: `${rail}/runs/${p.run.id}/billing`, key }),
    receipt: await s.json({ url: `/v1/runs/${p.run.id}/receipt`, key }),
    export: await s.json({ url: `/v1/runs/${p.run.id}/export`, key }),
    cancel: await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key }),
  };
}

async function endedRun(s: TestSimulator): Promise<Purchase> {
  const p = await buy(s, 'solana_sol');
  const { run } = await untilEnded(s, p.run.id);
  expect(run.status).toBe('succeeded');
  // The owner can read all of it.
  const own = await readsOf(s, p, p.key);
  for (const [name, response] of Object.entries(own)) expect(response.status, name).toBe(200);
  return p;
}

async function newKey(s: TestSimulator, accountId: string, body: Record<string, unknown>): Promise<string> {
  const created = await s.json({ method: 'POST', url: `/sim/accounts/${accountId}/keys`, body: { spendLimitAtomic: '1000000000', scopes: READ_SCOPES, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.secret;
}

describe('runs of another account', () => {
  it('are 404 "This run was not found." on every read, in the same asset too', async () => {
    const s = await start();
    const p = await endedRun(s);
    const account = await s.json({ method: 'POST', url: '/sim/accounts', body: { type: 'solana' } });
    const stranger = await newKey(s, account.body.account.id, { profile: 'solana_sol' });
    const reads = await readsOf(s, p, stranger);
    for (const [name, response] of Object.entries(reads)) {
      expect(response.status, name).toBe(404);
      expect(response.body, name).toEqual(MSG.runNotFound);
    }
    // And through the demo EVM account's ETH key on its own rail.
    const eth = await readsOf(s, p, s.secret('local_custody'), RAIL.local_custody);
    for (const [name, response] of Object.entries(eth)) expect(response.body, name).toEqual(MSG.runNotFound);
  });
});

describe('runs paid in another asset', () => {
  it('a SOL run read with the USDC key of the same account is 404', async () => {
    const s = await start();
    const p = await endedRun(s);
    const reads = await readsOf(s, p, s.secret('solana_usdc'));
    for (const [name, response] of Object.entries(reads)) {
      expect(response.status, name).toBe(404);
      expect(response.body, name).toEqual(MSG.runNotFound);
    }
  });

  it('a sim run of the EVM account read with its ETH key is 404', async () => {
    const s = await start();
    const p = await buy(s, 'sim');
    await untilEnded(s, p.run.id);
    const reads = await readsOf(s, p, s.secret('local_custody'), RAIL.local_custody);
    for (const [name, response] of Object.entries(reads)) expect(response.body, name).toEqual(MSG.runNotFound);
  });

  it('another key of the same account and asset sees the run', async () => {
    const s = await start();
    const p = await endedRun(s);
    const sibling = await newKey(s, p.accountId, { profile: 'solana_sol' });
    const reads = await readsOf(s, p, sibling);
    for (const [name, response] of Object.entries(reads)) expect(response.status, name).toBe(200);
  });
});

describe('listing restriction', () => {
  it('a key whose listingIds exclude the run’s listing gets 403 on run, billing, receipt and export reads (and cancel)', async () => {
    const s = await start();
    const p = await endedRun(s);
    const restricted = await newKey(s, p.accountId, { profile: 'solana_sol', listingIds: [WORKFLOW_LISTING_ID] });
    const reads = await readsOf(s, p, restricted);
    for (const [name, response] of Object.entries(reads)) {
      expect(response.status, name).toBe(403);
      expect(response.body, name).toEqual(MSG.listingNotAllowed);
    }
    // A key allowing the listing reads it.
    const allowed = await newKey(s, p.accountId, { profile: 'solana_sol', listingIds: [WORKFLOW_LISTING_ID, p.quote.listingId] });
    for (const [name, response] of Object.entries(await readsOf(s, p, allowed))) expect(response.status, name).toBe(200);
  });

  it('before settlement too: the run and billing reads are 403, not a 404 or a 409', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const restricted = await newKey(s, p.accountId, { profile: 'solana_sol', listingIds: [WORKFLOW_LISTING_ID] });
    const reads = await readsOf(s, p, restricted);
    for (const name of ['run', 'billing', 'receipt', 'export'] as const) {
      expect(reads[name].status, name).toBe(403);
      expect(reads[name].body, name).toEqual(MSG.listingNotAllowed);
    }
  });

  it('another account’s run stays 404 for a restricted key (nothing is revealed about it)', async () => {
    const s = await start();
    const p = await endedRun(s);
    const account = await s.json({ method: 'POST', url: '/sim/accounts', body: { type: 'solana' } });
    const restricted = await newKey(s, account.body.account.id, { profile: 'solana_sol', listingIds: [WORKFLOW_LISTING_ID] });
    for (const [name, response] of Object.entries(await readsOf(s, p, restricted))) expect(response.body, name).toEqual(MSG.runNotFound);
  });
});

describe('creator test runs', () => {
  it('a run of the creator test listing is 404 to the keys of its own account', async () => {
    const s = await start();
    // Keys cannot quote the creator test listing; its runs come from the creator studio. Stand one in by moving a run onto it.
    const quote = await s.json({ method: 'POST', url: `${RAIL.sim}/quotes`, key: s.secret('sim'), body: { listingId: CREATOR_TEST_LISTING_ID, input: { address: `0x${'1'.repeat(40)}` } } });
    expect(quote.status).toBe(404);
    const p = await buy(s, 'sim');
    await untilEnded(s, p.run.id);
    transact(s.sim.deps, (tx) => tx.put('runs', { ...tx.get('runs', p.run.id)!, listingId: CREATOR_TEST_LISTING_ID }));
    for (const [name, response] of Object.entries(await readsOf(s, p, p.key))) expect(response.body, name).toEqual(MSG.runNotFound);
  });
});
