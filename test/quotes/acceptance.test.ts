import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID, WORKFLOW_LISTING_ID } from '../../fixtures/listings/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import {
  accept, acceptOk, advance, balanceOf, big, createKey, deposit, expectLedger, idempotencyKey, LISTING_NOT_ALLOWED, observe, OTHER_ENVIRONMENT,
  provision, quoteOk, RAIL, rejected, runsOf, SPEND_LIMIT, spendUsed, type Buyer,
} from './support.ts';

/** Acceptance (spec 2.10, 3.1, 4.4, 4.5, 5, 8): each check in order, each refusal changing nothing. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let s: TestSimulator;
let max: bigint; // maximumBuyerDebitAtomic of a token research quote in ETH
beforeAll(async () => {
  s = await startSimulator({ demo: false });
  const probe = await provision(s, 'local_custody');
  max = big((await quoteOk(s, probe, TOKEN_RESEARCH_LISTING_ID)).maximumBuyerDebitAtomic);
});
afterAll(async () => {
  await s?.destroy();
});
afterEach(async () => {
  // Faults and listing state are simulator-wide: put them back whatever a test did.
  expect((await s.json({ method: 'PUT', url: '/sim/faults', body: { paymentsDisabled: [] } })).status).toBe(200);
  expect((await s.json({ method: 'PATCH', url: `/sim/listings/${TOKEN_RESEARCH_LISTING_ID}`, body: { active: true } })).status).toBe(200);
});

/** An ETH buyer with `funds` deposited and a spend limit of `limit`. */
const ethBuyer = (funds: bigint = 10n * max, limit: bigint = 100n * max, extra: { accountId?: string } = {}) =>
  provision(s, 'local_custody', { depositAtomic: funds, spendLimitAtomic: limit, ...extra });

type Expected = { status: number; code?: string; body?: unknown; retryAfter?: boolean };

/** An acceptance that must be refused as expected, leaving balances, key spend, runs and records untouched. */
async function refusedAccept(buyer: Pick<Buyer, 'secret' | 'profile' | 'accountId'>, quoteId: string, body: Record<string, unknown>, expected: Expected, secrets: string[] = [buyer.secret]) {
  const before = await observe(s, buyer.accountId, secrets);
  const runsBefore = s.sim.deps.store.count('runs');
  const r = await accept(s, buyer, quoteId, body);
  expect(r.status, JSON.stringify(r.body)).toBe(expected.status);
  if (expected.body) expect(r.body).toEqual(expected.body);
  if (expected.code && expected.status === 409) expectLedger(r, expected.code);
  else if (expected.code) expect(r.body.error.code).toBe(expected.code);
  if (expected.retryAfter) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(s.sim.deps.store.count('runs')).toBe(runsBefore);
  expect(await observe(s, buyer.accountId, secrets)).toEqual(before);
  return r;
}
const body = (quote: { contractHash: string }, key = idempotencyKey()) => ({ acceptedContractHash: quote.contractHash, idempotencyKey: key });
const wrongHash = (quote: { contractHash: string }) => ({ contractHash: (quote.contractHash[0] === 'a' ? 'b' : 'a') + quote.contractHash.slice(1) });

async function cancel(buyer: Buyer, runId: string) {
  const r = await s.json({ method: 'POST', url: `/v1/runs/${runId}/cancel`, key: buyer.secret });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.run.status).toBe('cancelled');
}
const setPaymentsDisabled = async (profiles: string[]) => expect((await s.json({ method: 'PUT', url: '/sim/faults', body: { paymentsDisabled: profiles } })).status).toBe(200);
const setListingActive = async (active: boolean) => expect((await s.json({ method: 'PATCH', url: `/sim/listings/${TOKEN_RESEARCH_LISTING_ID}`, body: { active } })).status).toBe(200);

describe('a successful acceptance (2.10)', () => {
  it('answers 202 { run, reservation, notice } and moves the maximum from available to reserved, counting it as key spend', async () => {
    const buyer = await ethBuyer();
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const before = await balanceOf(s, buyer.accountId, 'local_custody');
    const r = await accept(s, buyer, quote.id, body(quote));
    expect(r.status).toBe(202);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(Object.keys(r.body).sort()).toEqual(['notice', 'reservation', 'run']);
    const { run, reservation, notice } = r.body;
    expect(run.id).toMatch(UUID);
    expect(run.status).toBe('queued');
    expect(run.mode).toBe('test');
    expect(run.rpcUsed).toBe(0);
    expect(run.versionId).toBe(quote.versionId);
    expect(run.input).toEqual(quote.input);
    expect(reservation).toEqual({ id: expect.stringMatching(UUID), quoteId: quote.id, maximumAtomic: quote.maximumBuyerDebitAtomic });
    expect(typeof notice).toBe('string');
    expect(notice.length).toBeGreaterThan(0);

    const after = await balanceOf(s, buyer.accountId, 'local_custody');
    expect(big(after.availableAtomic)).toBe(big(before.availableAtomic) - max);
    expect(big(after.reservedAtomic)).toBe(big(before.reservedAtomic) + max);
    expect(after.depositedAtomic).toBe(before.depositedAtomic);
    expect(after.chargedAtomic).toBe('0');
    const key = (await s.json({ url: '/v1/buyer/key', key: buyer.secret })).body.key;
    expect(key.spendUsedAtomic).toBe(max.toString());
    expect(big(key.remainingSpendAtomic)).toBe(100n * max - max);
    // The run and its billing are readable and agree.
    const status = await s.json({ url: `/v1/runs/${run.id}`, key: buyer.secret });
    expect(status.status).toBe(200);
    expect(status.body.run.status).toBe('queued');
    const billing = await s.json({ url: `/v1/custody/runs/${run.id}/billing`, key: buyer.secret });
    expect(billing.body).toMatchObject({ runId: run.id, quoteId: quote.id, reservationId: reservation.id, status: 'reserved', settlement: null });
  });

  it('a rehearsal acceptance queues a run in mode rehearsal', async () => {
    const buyer = await provision(s, 'sim', { depositAtomic: 10n ** 12n });
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const accepted = await acceptOk(s, buyer, quote);
    expect(accepted.run).toMatchObject({ status: 'queued', mode: 'rehearsal', rpcUsed: 0 });
    expect((await balanceOf(s, buyer.accountId, 'sim')).reservedAtomic).toBe(quote.maximumBuyerDebitAtomic);
  });
});

describe('check 1: the quote belongs to the account, the key\'s asset and rail, its allowed listings', () => {
  it('refuses another account\'s quote, another asset, the other rail, a listing not allowed and a missing scope', async () => {
    const owner = await ethBuyer();
    const quote = await quoteOk(s, owner, TOKEN_RESEARCH_LISTING_ID);
    const stranger = await ethBuyer();
    await refusedAccept(stranger, quote.id, body(quote), { status: 404, code: 'not_found' });
    await refusedAccept(owner, '3f1d2c4b-5a69-4788-9abc-def012345678', body(quote), { status: 404, code: 'not_found' });
    // A sim key of the same account: other asset.
    const simKey = await provision(s, 'sim', { accountId: owner.accountId, depositAtomic: 10n ** 12n });
    await refusedAccept(simKey, quote.id, body(quote), { status: 403, body: OTHER_ENVIRONMENT }, [owner.secret, simKey.secret]);
    // The ETH key on the rehearsal or Solana rail.
    await refusedAccept({ ...owner, profile: 'sim' }, quote.id, body(quote), { status: 403, body: OTHER_ENVIRONMENT });
    await refusedAccept({ ...owner, profile: 'solana_sol' }, quote.id, body(quote), { status: 403, body: OTHER_ENVIRONMENT });
    // Another ETH key of the account, restricted to other listings.
    const restricted = await provision(s, 'local_custody', { accountId: owner.accountId, depositAtomic: '0', listingIds: [WORKFLOW_LISTING_ID] });
    await refusedAccept(restricted, quote.id, body(quote), { status: 403, body: LISTING_NOT_ALLOWED }, [owner.secret, restricted.secret]);
    const noScope = await createKey(s, owner.accountId, { profile: 'local_custody', spendLimitAtomic: '1000', scopes: ['catalog:read', 'runs:read'] });
    await refusedAccept({ ...owner, secret: noScope.secret }, quote.id, body(quote), { status: 403, body: rejected('This API key does not have the scope required for this route.') }, [owner.secret]);
    // The owner's own key still accepts it.
    await acceptOk(s, owner, quote);
  });
});

describe('check 2: the spend limit (403)', () => {
  it('committed spend plus the maximum must fit: max − 1 is refused, exactly max fits', async () => {
    const tight = await ethBuyer(10n * max, max - 1n);
    const q1 = await quoteOk(s, tight, TOKEN_RESEARCH_LISTING_ID);
    await refusedAccept(tight, q1.id, body(q1), { status: 403, body: SPEND_LIMIT });
    const exact = await ethBuyer(10n * max, max);
    const q2 = await quoteOk(s, exact, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, exact, q2);
    expect(await spendUsed(s, exact.secret)).toBe(max.toString());
    const key = (await s.json({ url: '/v1/buyer/key', key: exact.secret })).body.key;
    expect(key.remainingSpendAtomic).toBe('0');
  });

  it('counts reservations until settled, then the charged amount; other keys of the account do not count', async () => {
    const buyer = await ethBuyer(10n * max, 2n * max - 1n);
    const other = await provision(s, 'local_custody', { accountId: buyer.accountId, depositAtomic: '0', spendLimitAtomic: 10n * max });
    const q1 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const q2 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const first = await acceptOk(s, buyer, q1);
    await refusedAccept(buyer, q2.id, body(q2), { status: 403, body: SPEND_LIMIT }, [buyer.secret, other.secret]);
    // Another key of the same account is not limited by this key's spend.
    const q3 = await quoteOk(s, other, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, other, q3);
    expect(await spendUsed(s, buyer.secret)).toBe(max.toString());
    expect(await spendUsed(s, other.secret)).toBe(max.toString());
    // Cancelled while queued: nothing incurred, the key's spend drops to the charge (0) and q2 now fits.
    await cancel(buyer, first.run.id);
    expect(await spendUsed(s, buyer.secret)).toBe('0');
    await acceptOk(s, buyer, q2);
    expect(await spendUsed(s, buyer.secret)).toBe(max.toString());
  });
});

describe('check 3: contract hash, then expiry (409)', () => {
  it('a wrong hash is quote_contract_mismatch, also the hash of another quote', async () => {
    const buyer = await ethBuyer();
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const other = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await refusedAccept(buyer, quote.id, body(wrongHash(quote)), { status: 409, code: 'quote_contract_mismatch' });
    await refusedAccept(buyer, quote.id, body(other), { status: 409, code: 'quote_contract_mismatch' });
    await acceptOk(s, buyer, quote);
  });

  it('more than 240 seconds after creation the quote is expired (quote_expired); before, it is acceptable', async () => {
    const buyer = await ethBuyer();
    const old = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await advance(s, 1);
    const younger = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await advance(s, 239); // old: 240 s, younger: 239 s
    await acceptOk(s, buyer, younger);
    await advance(s, 1); // old: 241 s
    await refusedAccept(buyer, old.id, body(old), { status: 409, code: 'quote_expired' });
    await advance(s, 1000);
    await refusedAccept(buyer, old.id, body(old), { status: 409, code: 'quote_expired' });
  });
});

describe('check 4: payments enabled (503), then not accepted before (409)', () => {
  it('payments disabled in the currency refuse with 503; other currencies are unaffected; re-enabled it is accepted', async () => {
    const buyer = await ethBuyer();
    const simBuyer = await provision(s, 'sim', { accountId: buyer.accountId, depositAtomic: 10n ** 12n });
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const simQuote = await quoteOk(s, simBuyer, TOKEN_RESEARCH_LISTING_ID);
    await setPaymentsDisabled(['local_custody']);
    const r = await refusedAccept(buyer, quote.id, body(quote), { status: 503 }, [buyer.secret, simBuyer.secret]);
    expect(typeof r.body.error.code).toBe('string');
    expect(r.body.error.message.length).toBeGreaterThan(0);
    await acceptOk(s, simBuyer, simQuote);
    await setPaymentsDisabled([]);
    await acceptOk(s, buyer, quote);
  });

  it('a quote accepted before with another idempotency key: quote_already_accepted', async () => {
    const buyer = await ethBuyer();
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, buyer, quote, 'first-key-0001');
    await refusedAccept(buyer, quote.id, body(quote, 'second-key-002'), { status: 409, code: 'quote_already_accepted' });
    // Also through another key of the same account.
    const other = await provision(s, 'local_custody', { accountId: buyer.accountId, depositAtomic: '0' });
    await refusedAccept(other, quote.id, body(quote, 'third-key-0003'), { status: 409, code: 'quote_already_accepted' }, [buyer.secret, other.secret]);
  });
});

describe('check 5: the available balance (409)', () => {
  it('max − 1 available is insufficient_available_credit; one more unit and it is accepted', async () => {
    const buyer = await ethBuyer(max - 1n);
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await refusedAccept(buyer, quote.id, body(quote), { status: 409, code: 'insufficient_available_credit' });
    await deposit(s, buyer.accountId, 'local_custody', '1');
    await acceptOk(s, buyer, quote);
    expect(await balanceOf(s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: '0', reservedAtomic: max.toString() });
  });

  it('reserved funds are not available to another quote', async () => {
    const buyer = await ethBuyer(2n * max - 1n);
    const q1 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const q2 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, buyer, q1);
    await refusedAccept(buyer, q2.id, body(q2), { status: 409, code: 'insufficient_available_credit' });
  });
});

describe('check 6: listing active and run limits (429; the quote stays acceptable)', () => {
  it('an inactive listing refuses with 429, and after reactivation the same quote is accepted', async () => {
    const buyer = await ethBuyer();
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await setListingActive(false);
    const r = await refusedAccept(buyer, quote.id, body(quote), { status: 429, code: 'request_rejected' });
    expect(r.body.error.message.length).toBeGreaterThan(0);
    await setListingActive(true);
    await acceptOk(s, buyer, quote);
  });

  it('3 queued or running runs per account across keys: the 4th is 429 until one ends', async () => {
    const a = await ethBuyer();
    const b = await provision(s, 'local_custody', { accountId: a.accountId, depositAtomic: '0' });
    const c = await provision(s, 'sim', { accountId: a.accountId, depositAtomic: 10n ** 12n });
    const secrets = [a.secret, b.secret, c.secret];
    const r1 = await acceptOk(s, a, await quoteOk(s, a, TOKEN_RESEARCH_LISTING_ID));
    await acceptOk(s, b, await quoteOk(s, b, TOKEN_RESEARCH_LISTING_ID));
    const r3 = await acceptOk(s, c, await quoteOk(s, c, TOKEN_RESEARCH_LISTING_ID));
    const fourth = await quoteOk(s, b, TOKEN_RESEARCH_LISTING_ID);
    const simFourth = await quoteOk(s, c, TOKEN_RESEARCH_LISTING_ID);
    await refusedAccept(b, fourth.id, body(fourth), { status: 429, code: 'request_rejected', retryAfter: true }, secrets);
    await refusedAccept(c, simFourth.id, body(simFourth), { status: 429, code: 'request_rejected', retryAfter: true }, secrets);
    // Another account is not affected.
    const elsewhere = await ethBuyer();
    await acceptOk(s, elsewhere, await quoteOk(s, elsewhere, TOKEN_RESEARCH_LISTING_ID));
    // A run ends (cancelled): the same quote is accepted now.
    await cancel(a, r1.run.id);
    await acceptOk(s, b, fourth);
    await refusedAccept(c, simFourth.id, body(simFourth), { status: 429, code: 'request_rejected' }, secrets);
    await cancel(c, r3.run.id);
    await acceptOk(s, c, simFourth);
    expect((await runsOf(s, a.accountId)).filter((r) => r.status === 'queued')).toHaveLength(3);
  });

  it('20 runs per account in any 24 hours: the 21st is 429, and a day later runs start again', async () => {
    const buyer = await ethBuyer(10n * max);
    for (let i = 0; i < 20; i++) {
      const accepted = await acceptOk(s, buyer, await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
      await cancel(buyer, accepted.run.id);
    }
    expect(await runsOf(s, buyer.accountId)).toHaveLength(20);
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const r = await refusedAccept(buyer, quote.id, body(quote), { status: 429, code: 'request_rejected', retryAfter: true });
    expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    // Still refused just before the first run is 24 hours old, in another key of the account too.
    const other = await provision(s, 'local_custody', { accountId: buyer.accountId, depositAtomic: '0' });
    await advance(s, 86_390);
    const late = await quoteOk(s, other, TOKEN_RESEARCH_LISTING_ID);
    const stillRefused = await refusedAccept(other, late.id, body(late), { status: 429, code: 'request_rejected', retryAfter: true }, [buyer.secret, other.secret]);
    expect(Number(stillRefused.headers['retry-after'])).toBeLessThanOrEqual(10);
    // 24 hours after the first 20 started, the same quote (still within its 240 s) is accepted.
    await advance(s, 11);
    await acceptOk(s, other, late);
  });
});

describe('the order of the checks: the earlier failing check answers', () => {
  it('spend limit before hash, expiry, payments and balance', async () => {
    const buyer = await ethBuyer(max - 1n, max - 1n);
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await setPaymentsDisabled(['local_custody']);
    await refusedAccept(buyer, quote.id, body(wrongHash(quote)), { status: 403, body: SPEND_LIMIT });
    await advance(s, 241);
    await refusedAccept(buyer, quote.id, body(wrongHash(quote)), { status: 403, body: SPEND_LIMIT });
    await refusedAccept(buyer, quote.id, body(quote), { status: 403, body: SPEND_LIMIT });
  });

  it('check 1 before the spend limit', async () => {
    const owner = await ethBuyer();
    const restricted = await provision(s, 'local_custody', { accountId: owner.accountId, depositAtomic: '0', spendLimitAtomic: '1', listingIds: [WORKFLOW_LISTING_ID] });
    const quote = await quoteOk(s, owner, TOKEN_RESEARCH_LISTING_ID);
    await refusedAccept(restricted, quote.id, body(quote), { status: 403, body: LISTING_NOT_ALLOWED }, [owner.secret, restricted.secret]);
  });

  it('hash before expiry, expiry before payments, payments before balance', async () => {
    const buyer = await ethBuyer(max - 1n);
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await setPaymentsDisabled(['local_custody']);
    // Payments disabled and balance short: 503.
    await refusedAccept(buyer, quote.id, body(quote), { status: 503 });
    await advance(s, 241);
    // Expired, payments disabled, balance short: quote_expired.
    await refusedAccept(buyer, quote.id, body(quote), { status: 409, code: 'quote_expired' });
    // And a wrong hash on top: quote_contract_mismatch.
    await refusedAccept(buyer, quote.id, body(wrongHash(quote)), { status: 409, code: 'quote_contract_mismatch' });
  });

  it('an accepted quote: a wrong hash is a mismatch, payments disabled is 503, both before already-accepted; already-accepted before balance', async () => {
    const buyer = await ethBuyer(max); // after the first acceptance nothing is available
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, buyer, quote, 'original-key-1');
    expect((await balanceOf(s, buyer.accountId, 'local_custody')).availableAtomic).toBe('0');
    await refusedAccept(buyer, quote.id, body(quote, 'another-key-22'), { status: 409, code: 'quote_already_accepted' });
    await refusedAccept(buyer, quote.id, body(wrongHash(quote), 'another-key-22'), { status: 409, code: 'quote_contract_mismatch' });
    await setPaymentsDisabled(['local_custody']);
    await refusedAccept(buyer, quote.id, body(quote, 'another-key-22'), { status: 503 });
    await setPaymentsDisabled([]);
    // 4.5 puts expiry (check 3) before already-accepted (check 4).
    await advance(s, 241);
    await refusedAccept(buyer, quote.id, body(quote, 'another-key-22'), { status: 409, code: 'quote_expired' });
  });

  it('balance before listing activity and run limits', async () => {
    const buyer = await ethBuyer(3n * max);
    for (let i = 0; i < 3; i++) await acceptOk(s, buyer, await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    // Three runs active and nothing available: 409, not 429.
    await refusedAccept(buyer, quote.id, body(quote), { status: 409, code: 'insufficient_available_credit' });
    await setListingActive(false);
    await refusedAccept(buyer, quote.id, body(quote), { status: 409, code: 'insufficient_available_credit' });
    // With funds: 429 (listing inactive, three runs active).
    await deposit(s, buyer.accountId, 'local_custody', max);
    await refusedAccept(buyer, quote.id, body(quote), { status: 429, code: 'request_rejected' });
  });
});

describe('idempotency (4.4)', () => {
  it('the same key and hash replay 202 with the original run and reservation, reserving nothing again', async () => {
    const buyer = await ethBuyer();
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const first = await acceptOk(s, buyer, quote, 'replay-key-0001');
    const before = await observe(s, buyer.accountId, [buyer.secret]);
    for (let i = 0; i < 3; i++) {
      const again = await accept(s, buyer, quote.id, body(quote, 'replay-key-0001'));
      expect(again.status).toBe(202);
      expect(again.body.run.id).toBe(first.run.id);
      expect(again.body.reservation).toEqual(first.reservation);
      expect(again.body.notice).toBe(first.notice);
    }
    expect(await observe(s, buyer.accountId, [buyer.secret])).toEqual(before);
  });

  it('replays even after the quote expired, after the run ended, and when the spend limit is used up', async () => {
    const buyer = await ethBuyer(10n * max, max);
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const first = await acceptOk(s, buyer, quote, 'late-replay-01');
    // The spend limit is used up; the replay is not a new acceptance.
    let before = await observe(s, buyer.accountId, [buyer.secret]);
    const atLimit = await accept(s, buyer, quote.id, body(quote, 'late-replay-01'));
    expect(atLimit.status).toBe(202);
    expect(atLimit.body.run.id).toBe(first.run.id);
    expect(await observe(s, buyer.accountId, [buyer.secret])).toEqual(before);
    // Long after expiry; the run has ended and settled meanwhile.
    await advance(s, 3600);
    before = await observe(s, buyer.accountId, [buyer.secret]);
    expect(before.runs[0].status).not.toBe('queued');
    const late = await accept(s, buyer, quote.id, body(quote, 'late-replay-01'));
    expect(late.status).toBe(202);
    expect(late.body.run.id).toBe(first.run.id);
    expect(late.body.reservation).toEqual(first.reservation);
    expect(await observe(s, buyer.accountId, [buyer.secret])).toEqual(before);
    // The same key with another hash is not a replay.
    await refusedAccept(buyer, quote.id, body(wrongHash(quote), 'late-replay-01'), { status: 409, code: 'quote_contract_mismatch' });
  });

  it('an idempotency key already used by the account for another quote is idempotency_conflict, through any key', async () => {
    const buyer = await ethBuyer();
    const other = await provision(s, 'local_custody', { accountId: buyer.accountId, depositAtomic: '0' });
    const q1 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const q2 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, buyer, q1, 'shared-key-0001');
    await refusedAccept(buyer, q2.id, body(q2, 'shared-key-0001'), { status: 409, code: 'idempotency_conflict' }, [buyer.secret, other.secret]);
    await refusedAccept(other, q2.id, body(q2, 'shared-key-0001'), { status: 409, code: 'idempotency_conflict' }, [buyer.secret, other.secret]);
    // Another account may use the same idempotency key.
    const stranger = await ethBuyer();
    await acceptOk(s, stranger, await quoteOk(s, stranger, TOKEN_RESEARCH_LISTING_ID), 'shared-key-0001');
    // And q2 is still acceptable with a fresh key.
    await acceptOk(s, buyer, q2, 'shared-key-0002');
  });

  it('the body: idempotency key of 8 to 128 characters of A-Z a-z 0-9 _ -, a 64-hex hash, nothing else (400)', async () => {
    const buyer = await ethBuyer();
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const bad = { status: 400, code: 'invalid_input' };
    for (const key of ['a'.repeat(7), 'b'.repeat(129), 'has space1', 'dot.ted.key', 'slash/key/1', 'ümlautkey1', 'plus+key12', '']) {
      const r = await refusedAccept(buyer, quote.id, body(quote, key), bad);
      expect(r.body.error.message).toMatch(/idempotencyKey/);
    }
    await refusedAccept(buyer, quote.id, { acceptedContractHash: quote.contractHash }, bad);
    await refusedAccept(buyer, quote.id, { idempotencyKey: 'missing-hash-1' }, bad);
    await refusedAccept(buyer, quote.id, { acceptedContractHash: quote.contractHash.toUpperCase(), idempotencyKey: 'upper-hash-01' }, bad);
    await refusedAccept(buyer, quote.id, { acceptedContractHash: quote.contractHash.slice(1), idempotencyKey: 'short-hash-01' }, bad);
    await refusedAccept(buyer, quote.id, { ...body(quote), note: 'x' }, bad);
    await refusedAccept(buyer, 'not-a-uuid', body(quote), bad);
    // The boundaries that pass: 8 and 128 characters of the whole alphabet.
    const q2 = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    await acceptOk(s, buyer, quote, 'aZ0_-9zA');
    await acceptOk(s, buyer, q2, ('Ab9_-'.repeat(26)).slice(0, 128));
  });
});

describe('rails', () => {
  it('Solana keys accept on /v1/solana-custody in their own asset', async () => {
    for (const profile of ['solana_sol', 'solana_usdc'] as const) {
      const buyer = await provision(s, profile, { depositAtomic: 10n ** 15n });
      const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
      const r = await accept(s, buyer, quote.id, body(quote));
      expect(r.status, RAIL[profile]).toBe(202);
      expect((await balanceOf(s, buyer.accountId, profile)).reservedAtomic).toBe(quote.maximumBuyerDebitAtomic);
      expect(await spendUsed(s, buyer.secret)).toBe(quote.maximumBuyerDebitAtomic);
    }
  });
});
