import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATOR_TEST_LISTING_ID, TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { transact } from '../../sim/domain/context.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Spec 5 / 4.6: a key sees only paid runs; creator test runs are 404. The
 * creator studio that starts test runs is web-session only and not part of
 * the simulated API, so the test run is written as the studio would record it:
 * a run of the creator's own test listing, in the same account and asset as
 * the key. Every read must answer as if it did not exist.
 */
let s: TestSimulator;
let testRunId: string;
let paidRunId: string;

beforeAll(async () => {
  s = await startSimulator();
  const key = s.secret('local_custody');
  const quote = (await s.json({ method: 'POST', url: '/v1/custody/quotes', key, body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: { chain: 'ethereum', address: `0x${'34'.repeat(20)}` } } })).body.quote;
  paidRunId = (await s.json({ method: 'POST', url: `/v1/custody/quotes/${quote.id}/accept`, key, body: { acceptedContractHash: quote.contractHash, idempotencyKey: 'creator-test-0001' } })).body.run.id;
  await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 300 } });
  testRunId = transact(s.sim.deps, (tx) => {
    const paid = tx.get('runs', paidRunId)!;
    const id = s.sim.deps.random.uuid();
    tx.put('runs', { ...paid, id, listingId: CREATOR_TEST_LISTING_ID });
    tx.put('billings', { ...tx.get('billings', paidRunId)!, id, runId: id });
    return id;
  });
});

afterAll(async () => {
  await s.destroy();
});

describe('creator test runs', () => {
  it('are 404 on every read, while the paid run of the same account and asset is visible', async () => {
    const key = s.secret('local_custody');
    expect((await s.json({ url: `/v1/runs/${paidRunId}`, key })).status).toBe(200);
    for (const url of [`/v1/runs/${testRunId}`, `/v1/custody/runs/${testRunId}/billing`, `/v1/runs/${testRunId}/receipt`, `/v1/runs/${testRunId}/export`]) {
      const answer = await s.json({ url, key });
      expect(answer.status, url).toBe(404);
      expect(answer.body).toEqual({ error: { code: 'not_found', message: 'This run was not found.' } });
    }
    const cancel = await s.json({ method: 'POST', url: `/v1/runs/${testRunId}/cancel`, key });
    expect(cancel.status).toBe(404);
  });
});
