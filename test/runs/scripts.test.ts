import { afterEach, describe, expect, it } from 'vitest';
import {
  advance, billing, buy, DEMO_DEPOSIT, expectMoneyAfter, expectSettlement, now, script, simRun, stepsOf, stopAll, start, terms, tokenInput, untilEnded,
  untilStep,
} from './support.ts';

/**
 * POST /sim/runs/{id}/script (contract section 2): decides how a queued or
 * running run ends, within the agent's limits and the quote's caps; the
 * deadline (deadlineAt = start + maximumDurationMs) and a research provider
 * outage (PUT /sim/faults) end runs as platform failures that charge nothing.
 */
afterEach(stopAll);

const START_DELAY_MS = 1_000;

describe('a script decides the ending', () => {
  it('outcome, rpcCalls, unconfirmedRpcCalls, modelCostAtomic and durationSeconds of a queued run', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    const acceptedAt = await now(s);
    const scripted = await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 10, unconfirmedRpcCalls: 2, modelCostAtomic: '5000', durationSeconds: 20 });
    expect(scripted.status, JSON.stringify(scripted.body)).toBe(200);
    expect(scripted.body.run).toMatchObject({ id: p.run.id, status: 'queued' });
    const { run: planned, events } = await simRun(s, p.run.id);
    expect(planned.plan).toEqual({ outcome: 'succeeded', rpcCalls: 10, unconfirmedRpcCalls: 2, modelCostAtomic: '5000', durationSeconds: 20, failure: null, coverageGaps: [], source: 'script' });
    expect(stepsOf(events)).toEqual(['queued', 'scripted']);

    const { run, billing: b } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
    expect(run.rpcUsed).toBe(10);
    // Started one second after acceptance, ended durationSeconds later.
    expect(Date.parse(run.updatedAt)).toBe(acceptedAt + START_DELAY_MS + 20_000);
    expect(Date.parse(run.deadlineAt)).toBe(acceptedAt + START_DELAY_MS + 300_000);
    expect(b).toMatchObject({ status: 'pending', heldAtomic: (2n * t.rate).toString(), authorizedRpcCalls: 10, reconciledRpcCalls: 8, unresolvedRpcCalls: 2, modelCost: { usedAtomic: '5000' } });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: t.gross + 8n * t.rate + 5000n, pending: 2n * t.rate, keySpend: t.max });
  });

  it('a failure kind: research or platform, recorded in the run error', async () => {
    const s = await start();
    for (const failure of ['research', 'platform'] as const) {
      const p = await buy(s, 'solana_sol');
      expect((await script(s, p.run.id, { outcome: 'failed', failure })).status).toBe(200);
      const { run, billing: b } = await untilEnded(s, p.run.id);
      expect(run.status).toBe('failed');
      expect(run.error).toMatchObject({ kind: failure, message: expect.any(String) });
      expect(run.output).toBeNull();
      expectSettlement(b, p.quote, { outcome: 'failed', creatorFee: 0n, platformFee: 0n, execution: 0n });
    }
  });

  it('overrides a magic input', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { input: tokenInput('fa11') });
    expect((await simRun(s, p.run.id)).run.plan).toMatchObject({ outcome: 'failed', failure: 'research', source: 'magic-input' });
    expect((await script(s, p.run.id, { outcome: 'succeeded' })).status).toBe(200);
    const { run } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
  });

  it('on a running run: reads already made stay and the rest follow the script', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 40, modelCostAtomic: '0', durationSeconds: 40 });
    await untilStep(s, p.run.id, ({ run }) => run.rpcUsed === 20);
    const scripted = await script(s, p.run.id, { outcome: 'partial', rpcCalls: 90, unconfirmedRpcCalls: 0, durationSeconds: 60 });
    expect(scripted.status).toBe(200);
    expect(scripted.body.run).toMatchObject({ status: 'running', rpcUsed: 20 });
    // Fewer reads than already made is refused.
    const fewer = await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 19 });
    expect(fewer.status).toBe(400);
    expect(fewer.body.error.message).toMatch(/rpcCalls: the run already made 20 reads/);
    const { run, billing: b } = await untilEnded(s, p.run.id);
    expect(run).toMatchObject({ status: 'partial', rpcUsed: 90 });
    expectSettlement(b, p.quote, { outcome: 'partial', creatorFee: 0n, platformFee: 0n, execution: 0n });
    expect(b.authorizedRpcCalls).toBe(90);
  });

  it('on a running run whose reads are all done: the scripted read count is still what the run ends with', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 40, modelCostAtomic: '0', durationSeconds: 40 });
    await untilStep(s, p.run.id, ({ run }) => run.rpcUsed === 40);
    expect((await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 60, unconfirmedRpcCalls: 5, modelCostAtomic: '1000' })).status).toBe(200);
    const { run, billing: b } = await untilEnded(s, p.run.id);
    expect(run.rpcUsed).toBe(60);
    expect(b).toMatchObject({ status: 'pending', authorizedRpcCalls: 60, reconciledRpcCalls: 55, unresolvedRpcCalls: 5, heldAtomic: (5n * t.rate).toString() });
    expect(b.modelCost.usedAtomic).toBe('1000');
  });

  it('on a running run past its analysis: the scripted model cost is what is charged', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 40, modelCostAtomic: '2000', durationSeconds: 40 });
    await untilStep(s, p.run.id, ({ events }) => stepsOf(events).includes('analysis'));
    expect((await script(s, p.run.id, { outcome: 'succeeded', modelCostAtomic: '3000' })).status).toBe(200);
    const { billing: b } = await untilEnded(s, p.run.id);
    expectSettlement(b, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution: 40n * t.rate + 3000n });
    expect(b.modelCost.usedAtomic).toBe('3000');
  });

  it('a script can be replaced by another before the run ends', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    await script(s, p.run.id, { outcome: 'failed', failure: 'platform' });
    await script(s, p.run.id, { outcome: 'partial', coverageGaps: ['controls', 'totalSupply'] });
    const { run, events } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('partial');
    expect(run.output.coverageGaps).toEqual(['controls', 'totalSupply']);
    expect(stepsOf(events).filter((step) => step === 'scripted')).toHaveLength(2);
  });
});

describe('script bounds', () => {
  it('refuses with 400 what the agent or the quote cannot do, changing nothing', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    const maximumRpcCalls = p.quote.unitCosts.maximumRpcCalls;
    const before = await simRun(s, p.run.id);
    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ outcome: 'succeeded', rpcCalls: maximumRpcCalls + 1 }, new RegExp(`rpcCalls: at most ${maximumRpcCalls}`)],
      [{ outcome: 'succeeded', modelCostAtomic: (t.modelCap + 1n).toString() }, new RegExp(`modelCostAtomic: at most ${t.modelCap}`)],
      [{ outcome: 'succeeded', failure: 'platform' }, /failure: only a 'failed' outcome/],
      [{ outcome: 'partial', failure: 'research' }, /failure: only a 'failed' outcome/],
      [{ outcome: 'succeeded', rpcCalls: 3, unconfirmedRpcCalls: 4 }, /unconfirmedRpcCalls: cannot exceed rpcCalls/],
      [{ outcome: 'cancelled' }, /outcome/],
      [{ outcome: 'succeeded', failure: 'network' }, /failure/],
      [{ outcome: 'succeeded', modelCostAtomic: '-1' }, /modelCostAtomic/],
      [{ outcome: 'succeeded', rpcCalls: -1 }, /rpcCalls/],
      [{ outcome: 'succeeded', durationSeconds: 0 }, /durationSeconds/],
      [{ rpcCalls: 3 }, /outcome/],
      [{ outcome: 'succeeded', extra: true }, /extra/],
    ];
    for (const [body, message] of refusals) {
      const refused = await script(s, p.run.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_input');
      expect(refused.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await simRun(s, p.run.id)).toEqual(before);
    // The boundaries themselves are accepted.
    expect((await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: maximumRpcCalls, unconfirmedRpcCalls: maximumRpcCalls, modelCostAtomic: t.modelCap.toString() })).status).toBe(200);
  });

  it('a listing without AI analysis allows no model cost', async () => {
    const s = await start();
    const { LISTING_DEFINITIONS, listingIdFor } = await import('../../fixtures/listings/index.ts');
    const def = LISTING_DEFINITIONS.find((d) => d.slug === 'wallet-flow-tracer')!;
    expect(def.model).toBeUndefined();
    const p = await buy(s, 'solana_sol', { listingId: listingIdFor(def.slug), input: { chain: 'ethereum', wallet: `0x${'4'.repeat(40)}` } });
    expect(p.quote.modelExecution).toBeNull();
    const refused = await script(s, p.run.id, { outcome: 'succeeded', modelCostAtomic: '1' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/modelCostAtomic: at most 0/);
  });

  it('409 once the run has ended; 404 for an unknown run', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    await untilEnded(s, p.run.id);
    const ended = await script(s, p.run.id, { outcome: 'failed' });
    expect(ended.status).toBe(409);
    expect(ended.body.error.message).toMatch(/already ended/);
    const c = await buy(s, 'solana_sol');
    await s.json({ method: 'POST', url: `/v1/runs/${c.run.id}/cancel`, key: c.key });
    expect((await script(s, c.run.id, { outcome: 'succeeded' })).status).toBe(409);
    const unknown = await script(s, '00000000-0000-4000-8000-000000000000', { outcome: 'succeeded' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('This run was not found.');
  });
});

describe('the deadline', () => {
  it('a run scripted past maximumDurationMs ends failed, as a platform failure, at deadlineAt, charging nothing', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const acceptedAt = await now(s);
    const maximumSeconds = 300; // the token research agent's maximumDurationMs / 1000
    expect((await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 50, unconfirmedRpcCalls: 2, durationSeconds: maximumSeconds + 1 })).status).toBe(200);
    const { run, billing: b, events } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('failed');
    expect(Date.parse(run.deadlineAt)).toBe(acceptedAt + START_DELAY_MS + maximumSeconds * 1000);
    expect(run.updatedAt).toBe(run.deadlineAt);
    expect(run.error).toMatchObject({ kind: 'platform', reason: 'deadline-exceeded' });
    expect(run.output).toBeNull();
    // It had made every read and its analysis before the deadline; none of it is charged.
    expect(run.rpcUsed).toBe(50);
    expect(stepsOf(events)).toEqual(['queued', 'scripted', 'started', 'chain-reads', 'chain-reads', 'analysis', 'deadline-exceeded', 'settled']);
    expectSettlement(b, p.quote, { outcome: 'failed', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 0n });
  });

  it('a run whose very first step falls after the deadline ends at the deadline too', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    expect((await script(s, p.run.id, { outcome: 'succeeded', durationSeconds: 86_400 })).status).toBe(200);
    const { run, events } = await untilEnded(s, p.run.id);
    expect(run).toMatchObject({ status: 'failed', rpcUsed: 0 });
    expect(run.updatedAt).toBe(run.deadlineAt);
    expect(stepsOf(events)).toEqual(['queued', 'scripted', 'started', 'deadline-exceeded', 'settled']);
  });

  it('a run that finishes exactly at its deadline succeeds', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    expect((await script(s, p.run.id, { outcome: 'succeeded', durationSeconds: 300 })).status).toBe(200);
    const { run } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
    expect(run.updatedAt).toBe(run.deadlineAt);
  });

  it('the 5105 magic input overruns the same way', async () => {
    const s = await start();
    const p = await buy(s, 'local_custody', { input: tokenInput('5105') });
    const { run, billing: b } = await untilEnded(s, p.run.id);
    expect(run.plan.durationSeconds).toBe(360);
    expect(run).toMatchObject({ status: 'failed', error: { kind: 'platform', reason: 'deadline-exceeded' } });
    expect(run.updatedAt).toBe(run.deadlineAt);
    expectSettlement(b, p.quote, { outcome: 'failed', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.local_custody, { charged: 0n });
  });
});

describe('research provider outage (PUT /sim/faults { researchProviderUnavailable })', () => {
  it('runs starting while it is down fail as a platform failure and charge nothing; runs already running carry on; later runs start', async () => {
    const s = await start();
    const runningBefore = await buy(s, 'solana_sol');
    await untilStep(s, runningBefore.run.id, ({ run }) => run.status === 'running');
    const p = await buy(s, 'solana_sol');
    const down = await s.json({ method: 'PUT', url: '/sim/faults', body: { researchProviderUnavailable: true } });
    expect(down.status).toBe(200);
    expect(down.body.faults.researchProviderUnavailable).toBe(true);

    await advance(s, { seconds: 1 });
    const { run, billing: b, events } = await simRun(s, p.run.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ kind: 'platform', reason: 'research-provider-unavailable' });
    expect(run.deadlineAt).toBeNull();
    expect(stepsOf(events)).toEqual(['queued', 'failed', 'settled']);
    expectSettlement(b, p.quote, { outcome: 'failed', creatorFee: 0n, platformFee: 0n, execution: 0n });
    expect(await billing(s, p)).toEqual(b);

    // A run scripted to succeed fails the same way while the provider is down.
    const scripted = await buy(s, 'solana_sol');
    await script(s, scripted.run.id, { outcome: 'succeeded' });
    expect((await untilEnded(s, scripted.run.id)).run.status).toBe('failed');

    expect((await untilEnded(s, runningBefore.run.id)).run.status).toBe('succeeded');

    await s.json({ method: 'PUT', url: '/sim/faults', body: { researchProviderUnavailable: false } });
    const after = await buy(s, 'solana_sol');
    expect((await untilEnded(s, after.run.id)).run.status).toBe('succeeded');
  });
});
