/**
 * The polite client's purchase (docs/drill.md), as the bench makes it over HTTP: a
 * catalog page, a quote, its acceptance, a poll while the run is live, simulated
 * time moved on until the run has ended (one advance: the clock is frozen), a read of
 * its end, then billing, receipt and export. What a test suite or an integration
 * does per purchase; the figures users wait on are made of these.
 */
import { expectStatus, request } from './helpers.ts';
import { INPUT, LISTING_ID } from './populate.ts';

/** Accounts a bench simulator buys from, in turn: spec 8 allows 20 runs per account in 24 hours. */
export const BUYING_ACCOUNTS = 10;

export interface Buyer {
  url: string;
  keys: string[];
  next: number;
}

/** Funded EVM accounts with a key each, made through the control API before anything is timed. */
export async function makeBuyer(url: string): Promise<Buyer> {
  const keys: string[] = [];
  for (let i = 0; i < BUYING_ACCOUNTS; i += 1) {
    const account = await request(`${url}/sim/accounts`, { method: 'POST', body: { type: 'evm', label: `buyer ${i}` } });
    expectStatus(account, 201, 'account');
    const id = account.body.account.id;
    expectStatus(await request(`${url}/sim/accounts/${id}/deposits`, { method: 'POST', body: { profile: 'local_custody', amountAtomic: '1000000000000000000000000' } }), 201, 'deposit');
    const key = await request(`${url}/sim/accounts/${id}/keys`, { method: 'POST', body: { profile: 'local_custody', spendLimitAtomic: '1000000000000000000000000', rateLimitPerMinute: 600 } });
    expectStatus(key, 201, 'key');
    keys.push(key.body.secret);
  }
  return { url, keys, next: 0 };
}

let purchases = 0;

/** One purchase, end to end, from the next account in turn. */
export async function purchase(buyer: Buyer): Promise<void> {
  const { url } = buyer;
  const key = buyer.keys[buyer.next];
  buyer.next = (buyer.next + 1) % buyer.keys.length;
  expectStatus(await request(`${url}/v1/public/agents?category=token_research&limit=5`), 200, 'catalog');
  const quote = await request(`${url}/v1/custody/quotes`, { method: 'POST', key, body: { listingId: LISTING_ID, input: INPUT } });
  expectStatus(quote, 201, 'quote');
  const accepted = await request(`${url}/v1/custody/quotes/${quote.body.quote.id}/accept`, {
    method: 'POST',
    key,
    body: { acceptedContractHash: quote.body.quote.contractHash, idempotencyKey: `bench-purchase-${(purchases += 1)}` },
  });
  expectStatus(accepted, 202, 'accept');
  const runId = accepted.body.run.id;
  expectStatus(await request(`${url}/v1/runs/${runId}`, { key }), 200, 'poll');
  // Ten simulated minutes: the run ends and settles; the next account's last run is over an hour behind.
  expectStatus(await request(`${url}/sim/clock/advance`, { method: 'POST', body: { seconds: 600 } }), 200, 'advance');
  const ended = await request(`${url}/v1/runs/${runId}`, { key });
  expectStatus(ended, 200, 'run');
  expectStatus(await request(`${url}/v1/custody/runs/${runId}/billing`, { key }), 200, 'billing');
  expectStatus(await request(`${url}/v1/runs/${runId}/receipt`, { key }), 200, 'receipt');
  if (ended.body.run.status === 'succeeded' || ended.body.run.status === 'partial') expectStatus(await request(`${url}/v1/runs/${runId}/export`, { key }), 200, 'export');
}
