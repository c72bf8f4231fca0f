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

/** How a purchase moves simulated time, and who hears its answers. */
export interface PurchaseOptions {
  /** Seconds the clock is advanced once the run is accepted (600 by default: any run ends and settles). */
  advanceSeconds?: number;
  /** Scripts the run to end after one second (POST /sim/runs/{id}/script), so a short advance ends it. */
  shortRun?: boolean;
  /** Every answer, with the route that gave it (how bench/replay-app.ts learns the bodies it replays). */
  heard?: (method: string, route: string, status: number, body: unknown) => void;
}

/** Funded EVM accounts with a key each, made through the control API before anything is timed. */
export async function makeBuyer(url: string, accounts = BUYING_ACCOUNTS): Promise<Buyer> {
  const keys: string[] = [];
  for (let i = 0; i < accounts; i += 1) {
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
export async function purchase(buyer: Buyer, options: PurchaseOptions = {}): Promise<void> {
  const { url } = buyer;
  const key = buyer.keys[buyer.next];
  buyer.next = (buyer.next + 1) % buyer.keys.length;
  // One request: its answer checked, and heard under its route's pattern.
  const call = async (route: string, path: string, status: number, init: { method?: string; body?: unknown; key?: string } = {}) => {
    const answer = await request(`${url}${path}`, init);
    expectStatus(answer, status, route);
    options.heard?.(init.method ?? 'GET', route, answer.status, answer.body);
    return answer.body;
  };
  await call('/v1/public/agents', '/v1/public/agents?category=token_research&limit=5', 200);
  const { quote } = await call('/v1/custody/quotes', '/v1/custody/quotes', 201, { method: 'POST', key, body: { listingId: LISTING_ID, input: INPUT } });
  const accepted = await call('/v1/custody/quotes/:id/accept', `/v1/custody/quotes/${quote.id}/accept`, 202, {
    method: 'POST',
    key,
    body: { acceptedContractHash: quote.contractHash, idempotencyKey: `bench-purchase-${(purchases += 1)}` },
  });
  const runId = accepted.run.id;
  if (options.shortRun) {
    const scripted = await request(`${url}/sim/runs/${runId}/script`, { method: 'POST', body: { outcome: 'succeeded', durationSeconds: 1 } });
    // The clock is shared: other clients' advances (60 s each in the mix) may end the run
    // (5 to 120 s long) between its acceptance and this call. It is then over already, as
    // the script would have made it; the purchase goes on the same way.
    const endedFirst = scripted.status === 409 && /already ended/.test(scripted.body?.error?.message ?? '');
    if (!endedFirst) expectStatus(scripted, 200, '/sim/runs/:id/script');
    options.heard?.('POST', '/sim/runs/:id/script', scripted.status, scripted.body);
  }
  await call('/v1/runs/:id', `/v1/runs/${runId}`, 200, { key });
  // Ten simulated minutes by default: the run ends and settles; the next account's last run is over an hour behind.
  await call('/sim/clock/advance', '/sim/clock/advance', 200, { method: 'POST', body: { seconds: options.advanceSeconds ?? 600 } });
  const ended = await call('/v1/runs/:id', `/v1/runs/${runId}`, 200, { key });
  await call('/v1/custody/runs/:id/billing', `/v1/custody/runs/${runId}/billing`, 200, { key });
  await call('/v1/runs/:id/receipt', `/v1/runs/${runId}/receipt`, 200, { key });
  if (ended.run.status === 'succeeded' || ended.run.status === 'partial') await call('/v1/runs/:id/export', `/v1/runs/${runId}/export`, 200, { key });
}
