import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { balanceOf, big, provision, quoteOk, RAIL, SPEND_LIMIT, spendUsed, type Buyer } from './support.ts';

/** Concurrent acceptances over a real port (spec 3.2 "one transaction", 4.4, 4.5, 5). */

let s: TestSimulator;
let base: string;
let max: bigint;
beforeAll(async () => {
  s = await startSimulator({ demo: false });
  base = await listen(s.app);
  const probe = await provision(s, 'local_custody');
  max = big((await quoteOk(s, probe, TOKEN_RESEARCH_LISTING_ID)).maximumBuyerDebitAtomic);
});
afterAll(async () => {
  await s?.destroy();
});

async function post(path: string, secret: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
const acceptAt = (buyer: Buyer, quote: { id: string; contractHash: string }, idempotencyKey: string) =>
  post(`${RAIL[buyer.profile]}/quotes/${quote.id}/accept`, buyer.secret, { acceptedContractHash: quote.contractHash, idempotencyKey });

const runsOfAccount = (accountId: string) => s.sim.deps.store.all('runs').filter((r) => r.accountId === accountId);
const reservationsOfAccount = (accountId: string) => s.sim.deps.store.all('reservations').filter((r) => r.accountId === accountId);

/**
 * A POST whose headers are sent at once and whose body is held back until release():
 * a slow client. The server authenticates it (onRequest) before the body arrives.
 */
function heldPost(path: string, secret: string, body: unknown) {
  const payload = JSON.stringify(body);
  const req = httpRequest(`${base}${path}`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { release: () => req.end(payload), response };
}

/** Waits (on a condition, not a fixed time) until the server has authenticated `count` more requests of the key. */
async function untilAuthenticated(keyId: string, count: number): Promise<void> {
  const seen = () => s.sim.telemetry.usageOf(keyId, s.sim.deps.clock.now()).requestsLast24h;
  const deadline = Date.now() + 10_000;
  while (seen() < count) {
    if (Date.now() > deadline) throw new Error(`only ${seen()} of ${count} requests reached the server`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function tally(results: Array<{ status: number; body: any }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) {
    const label = r.status === 409 ? `409 ${r.body.error.code}` : String(r.status);
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

describe('concurrent acceptances over a real port', () => {
  it('25 identical acceptances at once: one reservation, all 202 with the same run', async () => {
    const buyer = await provision(s, 'local_custody', { depositAtomic: 5n * max, spendLimitAtomic: 5n * max });
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const results = await Promise.all(Array.from({ length: 25 }, () => acceptAt(buyer, quote, 'same-request-001')));
    expect(tally(results)).toEqual({ 202: 25 });
    const runIds = new Set(results.map((r) => r.body.run.id));
    const reservationIds = new Set(results.map((r) => r.body.reservation.id));
    expect(runIds.size).toBe(1);
    expect(reservationIds.size).toBe(1);
    expect(runsOfAccount(buyer.accountId)).toHaveLength(1);
    expect(reservationsOfAccount(buyer.accountId)).toHaveLength(1);
    expect(await balanceOf(s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: (4n * max).toString(), reservedAtomic: max.toString() });
    expect(await spendUsed(s, buyer.secret)).toBe(max.toString());
  });

  it('20 acceptances of different quotes under a spend limit that fits two: committed spend never exceeds it', async () => {
    const limit = 2n * max + max / 2n;
    const buyer = await provision(s, 'local_custody', { depositAtomic: 50n * max, spendLimitAtomic: limit });
    const quotes = [];
    for (let i = 0; i < 20; i++) quotes.push(await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const results = await Promise.all(quotes.map((q, i) => acceptAt(buyer, q, `spend-race-${String(i).padStart(3, '0')}`)));
    // Spend limit (check 2) fits floor(limit / max) = 2, below the run limit of 3, so it is the binding one.
    expect(tally(results)).toEqual({ 202: Number(limit / max), 403: 20 - Number(limit / max) });
    for (const r of results.filter((x) => x.status === 403)) expect(r.body).toEqual(SPEND_LIMIT);
    const used = big(await spendUsed(s, buyer.secret));
    expect(used).toBe(2n * max);
    expect(used <= limit).toBe(true);
    expect(runsOfAccount(buyer.accountId)).toHaveLength(2);
    expect(await balanceOf(s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: (48n * max).toString(), reservedAtomic: (2n * max).toString() });
  });

  it('10 acceptances at once against a balance covering 3: exactly 3 reserved, the rest insufficient_available_credit', async () => {
    // With 3 runs active and the balance short, check 5 (balance) answers before check 6 (run limits).
    const funds = 3n * max + max - 1n;
    const buyer = await provision(s, 'local_custody', { depositAtomic: funds, spendLimitAtomic: 100n * max });
    const quotes = [];
    for (let i = 0; i < 10; i++) quotes.push(await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const results = await Promise.all(quotes.map((q, i) => acceptAt(buyer, q, `balance-race-${String(i).padStart(3, '0')}`)));
    expect(tally(results)).toEqual({ 202: 3, '409 insufficient_available_credit': 7 });
    expect(await balanceOf(s, buyer.accountId, 'local_custody')).toMatchObject({ depositedAtomic: funds.toString(), availableAtomic: (max - 1n).toString(), reservedAtomic: (3n * max).toString() });
    expect(await spendUsed(s, buyer.secret)).toBe((3n * max).toString());
    expect(runsOfAccount(buyer.accountId)).toHaveLength(3);
    expect(reservationsOfAccount(buyer.accountId)).toHaveLength(3);
  });

  it('10 acceptances at once with a balance for 5: the run limit of 3 binds (429)', async () => {
    const buyer = await provision(s, 'local_custody', { depositAtomic: 5n * max, spendLimitAtomic: 100n * max });
    const quotes = [];
    for (let i = 0; i < 10; i++) quotes.push(await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const results = await Promise.all(quotes.map((q, i) => acceptAt(buyer, q, `run-race-${String(i).padStart(3, '0')}`)));
    // 3 reserve; 2 × max stays available, so the other 7 pass the balance check and meet the run limit.
    expect(tally(results)).toEqual({ 202: 3, 429: 7 });
    expect(await balanceOf(s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: (2n * max).toString(), reservedAtomic: (3n * max).toString() });
  });

  it('one quote, 10 different idempotency keys at once: one acceptance, nine quote_already_accepted', async () => {
    const buyer = await provision(s, 'local_custody', { depositAtomic: 10n * max, spendLimitAtomic: 100n * max });
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => acceptAt(buyer, quote, `many-keys-${String(i).padStart(3, '0')}`)));
    expect(tally(results)).toEqual({ 202: 1, '409 quote_already_accepted': 9 });
    expect(runsOfAccount(buyer.accountId)).toHaveLength(1);
    expect((await balanceOf(s, buyer.accountId, 'local_custody')).reservedAtomic).toBe(max.toString());
  });

  it('one idempotency key, 10 different quotes at once: one acceptance, nine idempotency_conflict', async () => {
    const buyer = await provision(s, 'local_custody', { depositAtomic: 10n * max, spendLimitAtomic: 100n * max });
    const quotes = [];
    for (let i = 0; i < 10; i++) quotes.push(await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const results = await Promise.all(quotes.map((q) => acceptAt(buyer, q, 'one-key-for-all')));
    expect(tally(results)).toEqual({ 202: 1, '409 idempotency_conflict': 9 });
    expect(runsOfAccount(buyer.accountId)).toHaveLength(1);
    expect(await spendUsed(s, buyer.secret)).toBe(max.toString());
  });

  it('slow clients: acceptances authenticated together, bodies arriving later, still respect the spend limit', async () => {
    const limit = 2n * max + max / 2n;
    const buyer = await provision(s, 'local_custody', { depositAtomic: 50n * max, spendLimitAtomic: limit });
    const quotes = [];
    for (let i = 0; i < 10; i++) quotes.push(await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const seenBefore = s.sim.telemetry.usageOf(buyer.keyId, s.sim.deps.clock.now()).requestsLast24h;
    const held = quotes.map((q, i) => heldPost(`/v1/custody/quotes/${q.id}/accept`, buyer.secret, { acceptedContractHash: q.contractHash, idempotencyKey: `slow-spend-${String(i).padStart(3, '0')}` }));
    await untilAuthenticated(buyer.keyId, seenBefore + held.length);
    for (const h of held) h.release();
    const results = await Promise.all(held.map((h) => h.response));
    expect(tally(results)).toEqual({ 202: 2, 403: 8 });
    const used = big(await spendUsed(s, buyer.secret));
    expect(used).toBe(2n * max);
    expect(used <= limit).toBe(true);
  });

  it('slow clients: the same acceptance repeated still reserves once; a short balance still refuses', async () => {
    const buyer = await provision(s, 'local_custody', { depositAtomic: 2n * max, spendLimitAtomic: 100n * max });
    const same = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const others = [await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID), await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID)];
    const seenBefore = s.sim.telemetry.usageOf(buyer.keyId, s.sim.deps.clock.now()).requestsLast24h;
    const held = [
      ...Array.from({ length: 5 }, () => heldPost(`/v1/custody/quotes/${same.id}/accept`, buyer.secret, { acceptedContractHash: same.contractHash, idempotencyKey: 'slow-same-0001' })),
      ...others.map((q, i) => heldPost(`/v1/custody/quotes/${q.id}/accept`, buyer.secret, { acceptedContractHash: q.contractHash, idempotencyKey: `slow-other-${i}0000` })),
    ];
    await untilAuthenticated(buyer.keyId, seenBefore + held.length);
    for (const h of held) h.release();
    const results = await Promise.all(held.map((h) => h.response));
    const sameResults = results.slice(0, 5);
    expect(new Set(sameResults.map((r) => r.status))).toEqual(new Set([202]));
    expect(new Set(sameResults.map((r) => r.body.run.id)).size).toBe(1);
    // Funds for two: the repeated acceptance and one of the others.
    expect(tally(results.slice(5))).toEqual({ 202: 1, '409 insufficient_available_credit': 1 });
    expect(await balanceOf(s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: '0', reservedAtomic: (2n * max).toString() });
    expect(runsOfAccount(buyer.accountId)).toHaveLength(2);
  });

  it('slow clients: a key revoked after authentication but before its body arrived accepts nothing', async () => {
    const buyer = await provision(s, 'local_custody', { depositAtomic: 5n * max, spendLimitAtomic: 100n * max });
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const seenBefore = s.sim.telemetry.usageOf(buyer.keyId, s.sim.deps.clock.now()).requestsLast24h;
    const held = heldPost(`/v1/custody/quotes/${quote.id}/accept`, buyer.secret, { acceptedContractHash: quote.contractHash, idempotencyKey: 'slow-revoked-01' });
    await untilAuthenticated(buyer.keyId, seenBefore + 1);
    expect((await s.json({ method: 'POST', url: `/sim/keys/${buyer.keyId}/revoke` })).status).toBe(200);
    held.release();
    const result = await held.response;
    expect(result).toEqual({ status: 401, body: { error: { code: 'request_rejected', message: 'A valid, active API key is required.' } } });
    expect(runsOfAccount(buyer.accountId)).toHaveLength(0);
    expect((await balanceOf(s, buyer.accountId, 'local_custody')).reservedAtomic).toBe('0');
  });
});
