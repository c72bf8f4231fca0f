import { afterEach, describe, expect, it } from 'vitest';
import { buildListingFixtures, TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { ASSETS } from '../../sim/domain/catalog/index.ts';
import type { Profile } from '../../sim/domain/catalog/index.ts';
import { canonicalJson } from '../../sim/domain/canonical-json.ts';
import {
  billing, buy, MSG, RAIL, script, simRun, stepsOf, stopAll, start, terms, tokenInput, untilEnded, untilStep, UUID,
} from './support.ts';

/** Run, billing, receipt and export reads (spec 2.8–2.12, 4.6, 4.8, 4.9, 6.1, 7). */
afterEach(stopAll);

const RUN_FIELDS = ['id', 'status', 'versionId', 'input', 'output', 'error', 'mode', 'attempt', 'rpcUsed', 'deadlineAt', 'createdAt', 'updatedAt'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PROFILES: Profile[] = ['solana_sol', 'solana_usdc', 'local_custody', 'sim'];

describe('GET /v1/runs/{id}', () => {
  it('returns { run, events }: the run of spec 2.8 and its events in the documented steps, polled to the end', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const read = async () => {
      const response = await s.json({ url: `/v1/runs/${p.run.id}`, key: p.key });
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(Object.keys(response.body).sort()).toEqual(['events', 'run']);
      return response.body;
    };
    const queued = await read();
    for (const field of RUN_FIELDS) expect(queued.run, field).toHaveProperty(field);
    expect(queued.run).toMatchObject({ id: p.run.id, status: 'queued', versionId: p.quote.versionId, input: p.quote.input, output: null, error: null, mode: 'test', attempt: 1, rpcUsed: 0, deadlineAt: null });
    expect(queued.run).toEqual(p.run);
    expect(stepsOf(queued.events)).toEqual(['queued']);

    const { run: plan } = await simRun(s, p.run.id);
    const seen = new Set<string>();
    for (let i = 0; i < 10; i += 1) {
      const { run, events } = await read();
      seen.add(run.status);
      for (const e of events) {
        expect(Object.keys(e).sort()).toEqual(['createdAt', 'id', 'message', 'step']);
        expect(e.id).toMatch(UUID);
        expect(e.createdAt).toMatch(ISO);
        expect(e.message.length).toBeGreaterThan(0);
      }
      if (['succeeded', 'partial', 'failed', 'cancelled'].includes(run.status)) break;
      await s.json({ method: 'POST', url: '/sim/clock/advance', body: { next: true } });
    }
    expect([...seen]).toEqual(['queued', 'running', 'succeeded']);
    const done = await read();
    expect(done.run).toMatchObject({ status: 'succeeded', rpcUsed: plan.plan.rpcCalls, error: null });
    expect(done.run.output).toMatchObject({ kind: 'token-research', chain: 'ethereum', address: p.quote.input.address });
    expect(done.run.deadlineAt).toMatch(ISO);
    expect(stepsOf(done.events)).toEqual(['queued', 'started', 'chain-reads', 'chain-reads', 'analysis', 'report', 'succeeded', 'settled']);
    // Oldest first, times never going back, ids distinct.
    const times = done.events.map((e: { createdAt: string }) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(done.events.map((e: { id: string }) => e.id)).size).toBe(done.events.length);
  });

  it('reads a partial run as partial (the published enum omits it; production runs return it)', async () => {
    const s = await start();
    const p = await buy(s, 'solana_usdc', { input: tokenInput('0a0a') });
    await untilEnded(s, p.run.id);
    const read = await s.json({ url: `/v1/runs/${p.run.id}`, key: p.key });
    expect(read.status).toBe(200);
    expect(read.body.run.status).toBe('partial');
    expect(read.body.run.output.coverageGaps).toEqual(['controls']);
    expect(stepsOf(read.body.events).slice(-3)).toEqual(['report', 'partial', 'settled']);
    const exported = await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(exported.body.run.status).toBe('partial');
  });

  it('holds at most 250 events, the latest ones; the export holds them all', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    for (let i = 0; i < 260; i += 1) expect((await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 1 + (i % 100) })).status).toBe(200);
    const { run } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
    const read = await s.json({ url: `/v1/runs/${p.run.id}`, key: p.key });
    expect(read.body.events).toHaveLength(250);
    // 1 queued + 260 scripted + 7 worker and settlement events = 268; the first 18 are left out.
    expect(stepsOf(read.body.events).slice(-7)).toEqual(['started', 'chain-reads', 'chain-reads', 'analysis', 'report', 'succeeded', 'settled']);
    expect(stepsOf(read.body.events).slice(0, 243)).toEqual(Array(243).fill('scripted'));
    const exported = await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(exported.status).toBe(200);
    expect(exported.body.events).toHaveLength(268);
    expect(exported.body.events.slice(-250)).toEqual(read.body.events);
  });

  it('unknown ids are 404, malformed ids 400, and a key without runs:read 403', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    expect((await s.json({ url: '/v1/runs/00000000-0000-4000-8000-000000000000', key: p.key })).body).toEqual(MSG.runNotFound);
    expect((await s.json({ url: '/v1/runs/nope', key: p.key })).status).toBe(400);
    const key = await s.json({ method: 'POST', url: `/sim/accounts/${p.accountId}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1', scopes: ['billing:read'] } });
    const refused = await s.json({ url: `/v1/runs/${p.run.id}`, key: key.body.secret });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(MSG.missingScope);
    expect((await s.json({ url: `/v1/runs/${p.run.id}/export`, key: key.body.secret })).body).toEqual(MSG.missingScope);
    expect((await s.json({ url: `/v1/runs/${p.run.id}` })).status).toBe(401);
  });
});

describe('GET .../runs/{id}/billing on each rail', () => {
  it.each(PROFILES)('%s: its own rail answers; the other rails are 403', async (profile) => {
    const s = await start();
    const p = await buy(s, profile);
    const reserved = await billing(s, p);
    expect(reserved).toMatchObject({
      runId: p.run.id,
      quoteId: p.quote.id,
      reservationId: p.reservation.id,
      status: 'reserved',
      settlement: null,
      pendingReason: null,
      authorizedRpcCalls: 0,
      reconciledRpcCalls: 0,
      unresolvedRpcCalls: 0,
      modelCost: null,
      notice: p.quote.notice,
    });
    for (const rail of new Set(Object.values(RAIL))) {
      if (rail === RAIL[profile]) continue;
      const refused = await s.json({ url: `${rail}/runs/${p.run.id}/billing`, key: p.key });
      expect(refused.status, rail).toBe(403);
      expect(refused.body).toEqual(MSG.otherEnvironment);
    }
    const { billing: settled } = await untilEnded(s, p.run.id);
    expect(await billing(s, p)).toEqual(settled);
    expect(settled.status).toBe('settled');
    expect(settled.settlement.settledAt).toMatch(ISO);
  });

  it('a key without billing:read gets 403', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const key = await s.json({ method: 'POST', url: `/sim/accounts/${p.accountId}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1', scopes: ['runs:read'] } });
    expect((await s.json({ url: `${RAIL.solana_sol}/runs/${p.run.id}/billing`, key: key.body.secret })).body).toEqual(MSG.missingScope);
    expect((await s.json({ url: `/v1/runs/${p.run.id}/receipt`, key: key.body.secret })).body).toEqual(MSG.missingScope);
  });
});

describe('GET /v1/runs/{id}/receipt', () => {
  it('is 404 until the billing is settled (queued, running, pending), then the quote, fee split, settlement and payment currency', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { input: tokenInput('c0de') });
    const receipt = () => s.json({ url: `/v1/runs/${p.run.id}/receipt`, key: p.key });
    const expectNone = async () => {
      const none = await receipt();
      expect(none.status).toBe(404);
      expect(none.body).toEqual(MSG.noReceipt);
    };
    await expectNone();
    await untilStep(s, p.run.id, ({ run }) => run.status === 'running');
    await expectNone();
    const { billing: pending } = await untilEnded(s, p.run.id);
    expect(pending.status).toBe('pending');
    await expectNone();
    await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/reconcile`, body: { confirmed: true } });
    const settled = await billing(s, p);
    const found = await receipt();
    expect(found.status).toBe(200);
    const t = terms(p.quote);
    expect(found.body.quote).toEqual(p.quote);
    expect(found.body.feeSplit).toEqual({
      feeBps: 1000,
      creatorFeeAtomic: t.creator.toString(),
      platformFeeAtomic: t.platform.toString(),
      executionChargeAtomic: settled.settlement.executionChargeAtomic,
    });
    expect(found.body.settlement).toEqual(settled.settlement);
    expect(found.body.payment).toMatchObject({ assetId: ASSETS.solana_sol.assetId, currencyLabel: 'SOL' });
  });

  it.each(PROFILES)('names the payment currency of a %s run', async (profile) => {
    const s = await start();
    const p = await buy(s, profile);
    await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key: p.key });
    const found = await s.json({ url: `/v1/runs/${p.run.id}/receipt`, key: p.key });
    expect(found.status).toBe(200);
    expect(found.body.payment).toMatchObject({ assetId: ASSETS[profile].assetId, currencyLabel: ASSETS[profile].currencyLabel });
    expect(found.body.payment.assetId).toBe(p.quote.assetId);
    expect(found.body.payment.currencyLabel).toBe(p.quote.currencyLabel);
    expect(found.body.settlement).toMatchObject({ outcome: 'cancelled', chargedAtomic: '0' });
  });
});

describe('GET /v1/runs/{id}/export', () => {
  const exportOf = (s: Awaited<ReturnType<typeof start>>, runId: string, key: string) => s.request({ url: `/v1/runs/${runId}/export`, key });

  it('409 before a report exists; then 200, canonical JSON of { run, version, events } with X-Service-Artifact-Id', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const early = await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/no report/);
    await untilStep(s, p.run.id, ({ run }) => run.rpcUsed > 0);
    expect((await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key })).status).toBe(409);
    await untilEnded(s, p.run.id);

    const response = await exportOf(s, p.run.id, p.key);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const artifactId = response.headers['x-service-artifact-id'];
    expect(artifactId).toMatch(UUID);
    const body = response.body;
    // Canonical: re-canonicalising the parsed document gives the same bytes (sorted keys, no whitespace).
    expect(canonicalJson(JSON.parse(body))).toBe(body);
    expect(body).not.toMatch(/\n/);
    const doc = JSON.parse(body);
    expect(Object.keys(doc)).toEqual(['events', 'run', 'version']);
    const read = (await s.json({ url: `/v1/runs/${p.run.id}`, key: p.key })).body;
    expect(doc.run).toEqual(read.run);
    expect(doc.events).toEqual(read.events);
    const fixture = buildListingFixtures().find((f) => f.listing.id === TOKEN_RESEARCH_LISTING_ID)!;
    expect(doc.version).toEqual(JSON.parse(JSON.stringify(fixture.version)));
    expect(doc.version.id).toBe(p.quote.versionId);

    // The stored artifact is served again byte for byte.
    const again = await exportOf(s, p.run.id, p.key);
    expect(again.headers['x-service-artifact-id']).toBe(artifactId);
    expect(again.body).toBe(body);
  });

  it('a run that ended without a report (failed, cancelled) has nothing to export', async () => {
    const s = await start();
    const failed = await buy(s, 'solana_sol', { input: tokenInput('fa11') });
    await untilEnded(s, failed.run.id);
    expect((await s.json({ url: `/v1/runs/${failed.run.id}/export`, key: failed.key })).status).toBe(409);
    const cancelled = await buy(s, 'solana_sol');
    await s.json({ method: 'POST', url: `/v1/runs/${cancelled.run.id}/cancel`, key: cancelled.key });
    expect((await s.json({ url: `/v1/runs/${cancelled.run.id}/export`, key: cancelled.key })).status).toBe(409);
  });

  it('410 on the next read after POST /sim/runs/{id}/export/expire, then 200 again with a new artifact id', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    await untilEnded(s, p.run.id);
    // Nothing stored yet: nothing to expire.
    expect((await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/export/expire` })).status).toBe(409);
    expect((await s.json({ method: 'POST', url: '/sim/runs/00000000-0000-4000-8000-000000000000/export/expire' })).status).toBe(404);

    const first = await exportOf(s, p.run.id, p.key);
    expect(first.statusCode).toBe(200);
    const expired = await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/export/expire` });
    expect(expired.status).toBe(200);
    const gone = await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(gone.status).toBe(410);
    expect(gone.body.error.message).toMatch(/expired/);
    expect(gone.headers['x-service-artifact-id']).toBeUndefined();
    const renewed = await exportOf(s, p.run.id, p.key);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.headers['x-service-artifact-id']).toMatch(UUID);
    expect(renewed.headers['x-service-artifact-id']).not.toBe(first.headers['x-service-artifact-id']);
    expect(renewed.body).toBe(first.body);
    expect((await exportOf(s, p.run.id, p.key)).headers['x-service-artifact-id']).toBe(renewed.headers['x-service-artifact-id']);
  });

  it('503 while export storage is unavailable, 200 once it is back', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    await untilEnded(s, p.run.id);
    const stored = await exportOf(s, p.run.id, p.key);
    expect((await s.json({ method: 'PUT', url: '/sim/faults', body: { exportStorageUnavailable: true } })).body.faults.exportStorageUnavailable).toBe(true);
    const down = await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(down.status).toBe(503);
    expect(down.body.error.message).toMatch(/Export storage is unavailable/);
    await s.json({ method: 'PUT', url: '/sim/faults', body: { exportStorageUnavailable: false } });
    const back = await exportOf(s, p.run.id, p.key);
    expect(back.statusCode).toBe(200);
    expect(back.body).toBe(stored.body);
  });

  it('a later event (reconciliation) stores a fresh export that includes it', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { input: tokenInput('c0de') });
    await untilEnded(s, p.run.id);
    const before = await exportOf(s, p.run.id, p.key);
    expect(JSON.parse(before.body).events.at(-1).step).toBe('billing-pending');
    await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/reconcile`, body: { confirmed: true } });
    const after = await exportOf(s, p.run.id, p.key);
    expect(after.headers['x-service-artifact-id']).not.toBe(before.headers['x-service-artifact-id']);
    expect(JSON.parse(after.body).events.at(-1).step).toBe('reconciled');
  });
});
