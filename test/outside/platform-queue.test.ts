import { afterEach, describe, expect, it } from 'vitest';
import { accountOf, buy, quote, RAIL, start, stopAll, untilEnded } from '../runs/support.ts';
import type { TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 13 point 9. Spec 8: "The platform-wide queue bound shared by all accounts"; spec
 * 4.5 check 6: over a run limit the acceptance is 429 and the quote stays valid until it
 * expires. /v1/capabilities publishes the bound in force; PUT /sim/platform-queue sets it.
 */
afterEach(stopAll);

async function capabilitiesQueue(s: TestSimulator) {
  const response = await s.json({ url: '/v1/capabilities' });
  expect(response.status).toBe(200);
  return response.body.queue;
}

async function setBound(s: TestSimulator, platformQueueBound: number) {
  const response = await s.json({ method: 'PUT', url: '/sim/platform-queue', body: { platformQueueBound } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.queue;
}

function available(balances: any[], profile: string): string {
  return balances.find((b) => b.profile === profile).availableAtomic;
}

describe('the platform-wide queue bound', () => {
  it('is published as set: 500 by default, then the bound PUT /sim/platform-queue sets, with the queue fill', async () => {
    const s = await start();
    expect(await capabilitiesQueue(s)).toEqual({ platformQueueBound: 500, queuedRuns: 0 });
    await buy(s, 'solana_sol');
    expect(await setBound(s, 7)).toEqual({ platformQueueBound: 7, queuedRuns: 1 });
    expect(await capabilitiesQueue(s)).toEqual({ platformQueueBound: 7, queuedRuns: 1 });
    expect((await s.json({ url: '/sim/platform-queue' })).body).toEqual({ queue: { platformQueueBound: 7, queuedRuns: 1 } });
    expect((await s.json({ method: 'POST', url: '/sim/reset' })).status).toBe(200);
    expect(await capabilitiesQueue(s)).toEqual({ platformQueueBound: 500, queuedRuns: 0 });
  });

  it('refuses an acceptance of any account with 429 and Retry-After while the queue is full; nothing is reserved and the quote stays acceptable', async () => {
    const s = await start();
    const first = await buy(s, 'solana_sol');
    await setBound(s, 1);

    // Another account's key: the bound is platform-wide.
    const key = s.secret('local_custody');
    const accountId = accountOf(s, 'local_custody');
    const before = (await s.json({ url: `/sim/accounts/${accountId}` })).body.balances;
    const q = await quote(s, 'local_custody');
    const url = `${RAIL.local_custody}/quotes/${q.id}/accept`;
    const body = { acceptedContractHash: q.contractHash, idempotencyKey: 'platform-queue-full' };
    const refused = await s.json({ method: 'POST', url, key, body });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('request_rejected');
    expect(refused.body.error.message).toBe('The platform-wide run queue is full. Try again shortly; the quote stays acceptable until it expires.');
    // As the account's active-run limit: a place frees when a run ends.
    expect(refused.headers['retry-after']).toBe('10');
    expect((await s.json({ url: `/sim/accounts/${accountId}` })).body.balances).toEqual(before);
    expect((await s.json({ url: `/sim/runs?accountId=${accountId}` })).body.runs).toEqual([]);

    // When the run ends a place frees, and the same quote is accepted within its lifetime.
    await untilEnded(s, first.run.id);
    expect(await capabilitiesQueue(s)).toEqual({ platformQueueBound: 1, queuedRuns: 0 });
    const accepted = await s.json({ method: 'POST', url, key, body });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(available((await s.json({ url: `/sim/accounts/${accountId}` })).body.balances, 'local_custody')).not.toBe(available(before, 'local_custody'));
  });

  it('a bound of 0 refuses every new run, while a replay of an earlier acceptance still answers 202', async () => {
    const s = await start();
    const earlier = await buy(s, 'solana_sol');
    await setBound(s, 0);
    const replay = await s.json({
      method: 'POST',
      url: `${RAIL.solana_sol}/quotes/${earlier.quote.id}/accept`,
      key: earlier.key,
      body: { acceptedContractHash: earlier.quote.contractHash, idempotencyKey: 'runs-suite-1' },
    });
    expect(replay.status, JSON.stringify(replay.body)).toBe(202);
    expect(replay.body.run.id).toBe(earlier.run.id);
    const q = await quote(s, 'solana_sol');
    const refused = await s.json({ method: 'POST', url: `${RAIL.solana_sol}/quotes/${q.id}/accept`, key: earlier.key, body: { acceptedContractHash: q.contractHash, idempotencyKey: 'platform-queue-zero' } });
    expect(refused.status).toBe(429);
  });

  it('PUT /sim/platform-queue refuses a bound that is not a non-negative integer, naming the field, and changes nothing', async () => {
    const s = await start();
    for (const platformQueueBound of [-1, 1.5, '10']) {
      const response = await s.json({ method: 'PUT', url: '/sim/platform-queue', body: { platformQueueBound } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_input');
      expect(response.body.error.message).toContain('platformQueueBound');
    }
    expect(await capabilitiesQueue(s)).toEqual({ platformQueueBound: 500, queuedRuns: 0 });
  });
});
