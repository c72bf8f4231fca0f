import { afterEach, describe, expect, it } from 'vitest';
import { MONITORING_LISTING_ID, TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { accountOf, buy, RAIL, start, stopAll, untilEnded, UUID } from '../runs/support.ts';
import { ethKey, mine, monitorBody, transfer, ALICE, BOB } from '../monitors/support.ts';
import type { TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 13 point 4, as a stranger would try it: ids are UUIDs (spec 2.1), and a UUID
 * written in upper case (or as an RFC 4122 URN) names the same resource, on every
 * /v1 and /sim route, in the path, the body and the query; answers carry the
 * lowercase form. Idempotency keys are not ids and stay case-sensitive.
 */
afterEach(stopAll);

const upper = (id: string) => id.toUpperCase();

async function ok(s: TestSimulator, options: { method?: string; url: string; key?: string; body?: unknown }, status = 200) {
  const response = await s.json(options);
  expect(response.status, `${options.method ?? 'GET'} ${options.url}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

describe('upper-case ids on /v1', () => {
  it('a run, its export, receipt, billing and cancel answer the same for the upper-case id as for the lowercase one', async () => {
    const s = await start();
    const bought = await buy(s, 'solana_sol');
    await untilEnded(s, bought.run.id);
    const id = bought.run.id;
    const key = bought.key;
    for (const url of [`/v1/runs/${id}`, `/v1/runs/${id}/export`, `/v1/runs/${id}/receipt`, `${RAIL.solana_sol}/runs/${id}/billing`]) {
      const lower = await s.request({ url, key });
      const shouted = await s.request({ url: url.replace(id, upper(id)), key });
      expect(shouted.statusCode, `${url}: ${shouted.body}`).toBe(200);
      expect(shouted.body).toBe(lower.body);
    }
    const cancelled = await ok(s, { method: 'POST', url: `/v1/runs/${upper(id)}/cancel`, key });
    expect(cancelled.run.id).toBe(id);
    // The URN form of the same UUID is the same run too.
    expect((await ok(s, { url: `/v1/runs/urn:uuid:${upper(id)}`, key })).run.id).toBe(id);
  });

  it('accepting an upper-case quote id queues the run of that quote; the answer carries lowercase ids', async () => {
    const s = await start();
    const key = s.secret('solana_sol');
    const quote = (await ok(s, { method: 'POST', url: `${RAIL.solana_sol}/quotes`, key, body: { listingId: upper(TOKEN_RESEARCH_LISTING_ID), input: { chain: 'ethereum', address: `0x${'7'.repeat(40)}` } } }, 201)).quote;
    const accepted = await ok(s, { method: 'POST', url: `${RAIL.solana_sol}/quotes/${upper(quote.id)}/accept`, key, body: { acceptedContractHash: quote.contractHash, idempotencyKey: 'id-case-accept' } }, 202);
    expect(accepted.run.status).toBe('queued');
    expect(accepted.run.quoteId).toBe(quote.id);
    expect(accepted.run.listingId).toBe(TOKEN_RESEARCH_LISTING_ID);
    expect(accepted.reservation.quoteId).toBe(quote.id);
    expect(accepted.run.id).toMatch(UUID);
  });

  it('idempotency keys stay case-sensitive: the same letters in another case are another key', async () => {
    const s = await start();
    const key = s.secret('solana_sol');
    const quote = (await ok(s, { method: 'POST', url: `${RAIL.solana_sol}/quotes`, key, body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: { chain: 'ethereum', address: `0x${'7'.repeat(40)}` } } }, 201)).quote;
    const url = `${RAIL.solana_sol}/quotes/${quote.id}/accept`;
    await ok(s, { method: 'POST', url, key, body: { acceptedContractHash: quote.contractHash, idempotencyKey: 'Case-Key-1' } }, 202);
    const other = await s.json({ method: 'POST', url, key, body: { acceptedContractHash: quote.contractHash, idempotencyKey: 'CASE-KEY-1' } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('quote_already_accepted');
  });

  it('a monitor, its stop, a notification ack, and a body listingId accept upper case', async () => {
    const s = await start();
    const { key } = ethKey(s);
    const created = await ok(s, { method: 'POST', url: '/v1/monitors', key, body: monitorBody({ listingId: upper(MONITORING_LISTING_ID) }) }, 201);
    const monitor = created.monitor;
    // Found by its upper-case id: the monitor runs the listing's current version.
    expect(monitor.versionId).toMatch(UUID);
    expect((await ok(s, { url: `/v1/monitors/${upper(monitor.id)}`, key })).monitor.id).toBe(monitor.id);

    await mine(s, 'base', [transfer(ALICE, BOB, '1')]);
    const [notification] = (await ok(s, { url: '/v1/notifications', key })).notifications;
    const acked = await ok(s, { method: 'POST', url: `/v1/notifications/${upper(notification.id)}/ack`, key });
    expect(acked.notification.id).toBe(notification.id);
    expect(acked.notification.acknowledgedAt).not.toBeNull();

    const stopped = await ok(s, { method: 'POST', url: `/v1/monitors/${upper(monitor.id)}/stop`, key });
    expect(stopped.monitor).toMatchObject({ id: monitor.id, status: 'stopped' });
  });
});

describe('upper-case ids on /sim', () => {
  it('accounts, keys (and their listingIds), runs, listings, destinations, monitors and subscriptions', async () => {
    const s = await start();
    const accountId = accountOf(s, 'local_custody');
    const ACCOUNT = upper(accountId);
    expect((await ok(s, { url: `/sim/accounts/${ACCOUNT}` })).account.id).toBe(accountId);
    expect((await ok(s, { url: `/sim/accounts/${ACCOUNT}/ledger` })).entries.length).toBeGreaterThan(0);
    await ok(s, { method: 'POST', url: `/sim/accounts/${ACCOUNT}/deposits`, body: { profile: 'local_custody', amountAtomic: '1000' } }, 201);

    // A key restricted to a listing named in upper case may use that listing.
    const made = await ok(s, { method: 'POST', url: `/sim/accounts/${ACCOUNT}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '100000000000000000000', listingIds: [upper(TOKEN_RESEARCH_LISTING_ID)] } }, 201);
    expect(made.key.listingIds).toEqual([TOKEN_RESEARCH_LISTING_ID]);
    const bought = await buy(s, 'local_custody', { key: made.secret });
    expect((await ok(s, { url: `/sim/accounts/${ACCOUNT}/keys` })).keys.map((k: any) => k.id)).toContain(made.key.id);

    const RUN = upper(bought.run.id);
    expect((await ok(s, { url: `/sim/runs/${RUN}` })).run.id).toBe(bought.run.id);
    expect((await ok(s, { url: `/sim/runs?accountId=${ACCOUNT}` })).runs.map((r: any) => r.id)).toEqual([bought.run.id]);
    expect((await ok(s, { method: 'POST', url: `/sim/runs/${RUN}/script`, body: { outcome: 'succeeded' } })).run.id).toBe(bought.run.id);
    await untilEnded(s, bought.run.id);
    await ok(s, { url: `/v1/runs/${bought.run.id}/export`, key: made.secret });
    await ok(s, { method: 'POST', url: `/sim/runs/${RUN}/export/expire` });

    expect((await ok(s, { method: 'POST', url: `/sim/keys/${upper(made.key.id)}/revoke` })).key.id).toBe(made.key.id);
    expect((await ok(s, { method: 'PATCH', url: `/sim/listings/${upper(TOKEN_RESEARCH_LISTING_ID)}`, body: { active: false } })).listing.id).toBe(TOKEN_RESEARCH_LISTING_ID);

    const destination = (await ok(s, { method: 'POST', url: `/sim/accounts/${ACCOUNT}/destinations`, body: { url: 'https://chat.example.com/id-case', kind: 'chat' } }, 201)).destination;
    const DESTINATION = upper(destination.id);
    expect((await ok(s, { url: `/sim/destinations/${DESTINATION}` })).destination.id).toBe(destination.id);
    const { chatCode } = await ok(s, { method: 'POST', url: `/sim/destinations/${DESTINATION}/verify` });
    expect((await ok(s, { method: 'POST', url: `/sim/destinations/${DESTINATION}/confirm`, body: { code: chatCode } })).destination.state).toBe('verified');
    const monitor = (await ok(s, { method: 'POST', url: `/sim/accounts/${ACCOUNT}/monitors`, body: monitorBody() }, 201)).monitor;
    const MONITOR = upper(monitor.id);
    expect((await ok(s, { url: `/sim/monitors/${MONITOR}` })).monitor.id).toBe(monitor.id);
    const subscribed = await ok(s, { method: 'POST', url: `/sim/monitors/${MONITOR}/subscriptions`, body: { destinationId: DESTINATION } }, 201);
    expect(subscribed.subscription).toMatchObject({ monitorId: monitor.id, destinationId: destination.id });
    await ok(s, { method: 'DELETE', url: `/sim/monitors/${MONITOR}/subscriptions/${DESTINATION}` });
    expect((await ok(s, { method: 'POST', url: `/sim/destinations/${upper(destination.id)}/revoke` })).destination.id).toBe(destination.id);
  });
});
