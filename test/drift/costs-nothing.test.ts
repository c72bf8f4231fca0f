import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Understudy } from '../../src/library/index.ts';
import { runDrift, type DriftReport } from '../../src/drift/run.ts';
import { targetOf } from '../../src/drift/target.ts';
import { startStandIn } from './support.ts';

/**
 * Issue 30: the probe set reserves, charges and spends nothing on the service's
 * side. The stand-in's whole store is read before and after (GET /sim/snapshot):
 * what may change is what spec 5 records for every request (the request log,
 * the key's lastUsedAt and requestsLast24h), the quotes (spec 2.7: they reserve
 * nothing) with their expiry jobs, and the id generator that named them.
 */
interface Snapshot {
  store: { meta: Record<string, any>; collections: Record<string, Record<string, any>> };
}

let standIn: Understudy;
let keyId: string;
let accountId: string;
let key: string;
let before: Snapshot;
let after: Snapshot;
let keyBefore: any;
let keyAfter: any;
let report: DriftReport;

const snapshot = async (): Promise<Snapshot> => (await fetch(`${standIn.url}/sim/snapshot`)).json() as Promise<Snapshot>;
const readKey = async () => (await (await fetch(`${standIn.url}/v1/buyer/key`, { headers: { authorization: `Bearer ${key}` } })).json()).key;

beforeAll(async () => {
  ({ standIn, key, keyId, accountId } = await startStandIn());
  keyBefore = await readKey();
  before = await snapshot();
  report = await runDrift({ target: targetOf(standIn.url, key) });
  after = await snapshot();
  keyAfter = await readKey();
});

afterAll(async () => {
  await standIn?.stop();
});

describe('the probe set costs nothing on the service side', () => {
  it('ran whole: quotes created and acceptances refused on the service', () => {
    const statusOf = (id: string) => report.probes.find((p) => p.id === id)?.service;
    expect(report.failure).toBeUndefined();
    expect([statusOf('quote-created'), statusOf('quote-canonical-metadata'), statusOf('accept-wrong-hash'), statusOf('accept-malformed-key'), statusOf('monitor-create-refused')]).toEqual([201, 201, 409, 400, 403]);
  });

  it('leaves balances, ledger, keys, accounts and listings exactly as they were; no reservation, run, billing or monitor exists', () => {
    const { quotes: _q, jobs: _j, ...rest } = after.store.collections;
    const { quotes: _bq, jobs: _bj, ...restBefore } = before.store.collections;
    expect(rest).toEqual(restBefore);
    // The demo account holds a deposit: an acceptance that got through would have moved it.
    expect(Object.values(after.store.collections.balances).some((b: any) => b.accountId === accountId && b.availableAtomic !== '0')).toBe(true);
    expect(Object.keys(after.store.collections).sort()).toEqual([...Object.keys(before.store.collections), 'quotes'].sort());
    expect(after.store.meta.ledgerSeq).toBe(before.store.meta.ledgerSeq);
  });

  it("leaves the key's spend as it was; only its use is recorded", () => {
    const { lastUsedAt: _a, requestsLast24h: usedAfter, ...restAfter } = keyAfter;
    const { lastUsedAt: _b, requestsLast24h: usedBefore, ...restBefore } = keyBefore;
    expect(restAfter).toEqual(restBefore);
    expect(keyAfter.spendUsedAtomic).toBe(keyBefore.spendUsedAtomic);
    expect(Date.parse(keyAfter.lastUsedAt)).toBeGreaterThan(Date.parse(keyBefore.lastUsedAt));
    expect(usedAfter).toBeGreaterThan(usedBefore);
  });

  it('adds only the two quotes and their expiry jobs', () => {
    const quotes = Object.values(after.store.collections.quotes);
    expect(quotes).toHaveLength(2);
    const newJobs = Object.keys(after.store.collections.jobs).filter((id) => !(id in before.store.collections.jobs)).sort();
    expect(newJobs).toEqual(quotes.map((q: any) => `quote.expire:${q.id}`).sort());
    expect(Object.keys(before.store.collections.jobs).every((id) => id in after.store.collections.jobs)).toBe(true);
  });

  it('records every probe in the request log (spec 5), none a cancel, stop or acknowledgement', () => {
    const log = (s: Snapshot) => s.store.meta.telemetry.requests as { route: string; method: string; status: number; keyId?: string }[];
    const added = log(after).slice(log(before).length);
    // One entry per probe sent to the service, in order, with the status the report shows.
    const sent = report.probes.filter((p) => p.service !== undefined);
    expect(added.map((r) => r.status)).toEqual(sent.map((p) => p.service));
    // Every entry is the key's, but the description (sent without it) and the route that refuses keys (401).
    expect(added.filter((r) => r.keyId !== keyId).map((r) => `${r.route} ${r.status}`)).toEqual(['/v1/openapi.json 200', '(unmatched) 401']);
    expect(added.some((r) => /cancel|stop|ack/.test(r.route))).toBe(false);
    const accepts = added.filter((r) => r.route.endsWith('/accept'));
    expect(accepts.map((r) => r.status).sort()).toEqual([400, 409]);
  });
});
