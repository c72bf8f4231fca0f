import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../sim/domain/catalog/index.ts';
import {
  advance, balance, billing, buy, DEMO_DEPOSIT, expectLedger, expectMoneyAfter, expectSettlement, keyOf, script, simRun, stepsOf, stopAll, start, terms,
  tokenInput, untilEnded, untilStep,
} from './support.ts';

/**
 * The charge table of spec 3.3 under the default policy complete_only, row by
 * row, over HTTP. Every amount is re-derived here with BigInt from the quote
 * (creator fee, its 10% platform share, the per-read rate of unitCosts) and the
 * run's plan (reads, model cost) as GET /sim/runs/{id} shows it.
 */
afterEach(stopAll);

const PENDING_REASON = /authorized blockchain read has no confirmed receipt.*held pending trusted reconciliation/;

describe('a complete report under complete_only', () => {
  it.each<Profile>(['solana_sol', 'solana_usdc', 'local_custody', 'sim'])('charges creator fee + platform fee + execution used, on the %s rail', async (profile) => {
    const s = await start();
    const p = await buy(s, profile);
    const t = terms(p.quote);
    expect(p.quote.resultPolicy).toBe('complete_only');
    const { run, billing: b } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
    expect(run.plan.source).toBe('listing-default');
    expect(run.rpcUsed).toBe(run.plan.rpcCalls);
    const execution = BigInt(run.rpcUsed) * t.rate + BigInt(run.plan.modelCostAtomic);
    expect(execution <= t.cap).toBe(true);
    expectSettlement(b, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution });
    // The same figures through the buyer's billing route of the rail.
    const viaRail = await billing(s, p);
    expect(viaRail.settlement).toEqual(b.settlement);
    expect(viaRail).toMatchObject({ authorizedRpcCalls: run.rpcUsed, reconciledRpcCalls: run.rpcUsed, unresolvedRpcCalls: 0 });
    expect(viaRail.modelCost).toEqual(p.quote.modelExecution ? { usedAtomic: run.plan.modelCostAtomic, capAtomic: p.quote.modelExecution.costCapAtomic } : null);
    await expectMoneyAfter(s, p, DEMO_DEPOSIT[profile], { charged: t.gross + execution });
  });

  it('charges exactly the quote maximum when every read and the whole model cap are used, never more', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    const scripted = await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: p.quote.unitCosts.maximumRpcCalls, modelCostAtomic: t.modelCap.toString() });
    expect(scripted.status, JSON.stringify(scripted.body)).toBe(200);
    const { billing: b } = await untilEnded(s, p.run.id);
    expectSettlement(b, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution: t.cap });
    expect(b.settlement.chargedAtomic).toBe(p.quote.maximumBuyerDebitAtomic);
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: t.max });
  });

  it('posts only the charge: the rest of the reservation is back in available', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    const reserved = await balance(s, p.accountId, 'solana_sol');
    expectLedger(reserved);
    expect(reserved).toMatchObject({ reservedAtomic: t.max.toString(), availableAtomic: (DEMO_DEPOSIT.solana_sol - t.max).toString(), chargedAtomic: '0' });
    expect((await keyOf(s, p.key)).spendUsedAtomic).toBe(t.max.toString());
    expect((await billing(s, p)).status).toBe('reserved');
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 10, modelCostAtomic: '0' });
    await untilEnded(s, p.run.id);
    const charged = t.gross + 10n * t.rate;
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged });
    const after = await balance(s, p.accountId, 'solana_sol');
    // Available lost exactly the charge: the remainder max − charged came back.
    expect(BigInt(after.availableAtomic) - BigInt(reserved.availableAtomic)).toBe(t.max - charged);
  });
});

describe('outcomes that charge nothing: the whole reservation returns', () => {
  const cases: Array<{ name: string; suffix?: string; plan?: Record<string, unknown>; status: string; outcome: string; error?: unknown }> = [
    { name: 'a partial report (scripted)', plan: { outcome: 'partial' }, status: 'partial', outcome: 'partial' },
    { name: 'a partial report with the five facts observed (0a0a)', suffix: '0a0a', status: 'partial', outcome: 'partial' },
    { name: 'a partial report missing totalSupply (0b0b)', suffix: '0b0b', status: 'partial', outcome: 'partial' },
    { name: 'a failed report (the report failed its result contract)', plan: { outcome: 'failed' }, status: 'failed', outcome: 'failed', error: { kind: 'report' } },
    { name: 'a confirmed research failure (fa11)', suffix: 'fa11', status: 'failed', outcome: 'failed', error: { kind: 'research' } },
    { name: 'a confirmed platform failure (dead)', suffix: 'dead', status: 'failed', outcome: 'failed', error: { kind: 'platform' } },
    { name: 'a scripted research failure', plan: { outcome: 'failed', failure: 'research' }, status: 'failed', outcome: 'failed', error: { kind: 'research' } },
    { name: 'a scripted platform failure', plan: { outcome: 'failed', failure: 'platform' }, status: 'failed', outcome: 'failed', error: { kind: 'platform' } },
    {
      name: 'a failure with unconfirmed reads (no execution is charged, so nothing is held)',
      plan: { outcome: 'failed', failure: 'platform', rpcCalls: 12, unconfirmedRpcCalls: 5 },
      status: 'failed',
      outcome: 'failed',
      error: { kind: 'platform' },
    },
    { name: 'a partial report with unconfirmed reads (c0de scripted partial)', suffix: 'c0de', plan: { outcome: 'partial', unconfirmedRpcCalls: 3 }, status: 'partial', outcome: 'partial' },
  ];

  it.each(cases)('$name', async ({ suffix, plan, status, outcome, error }) => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { input: tokenInput(suffix ?? '') });
    if (plan) expect((await script(s, p.run.id, plan)).status).toBe(200);
    const { run, billing: b, events } = await untilEnded(s, p.run.id);
    expect(run.status).toBe(status);
    if (error) expect(run.error).toMatchObject(error as object);
    expect(run.rpcUsed).toBe(run.plan.rpcCalls);
    expectSettlement(b, p.quote, { outcome, creatorFee: 0n, platformFee: 0n, execution: 0n });
    expect(b.heldAtomic).toBe('0');
    expect(stepsOf(events).slice(-2)).toEqual([status, 'settled']);
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 0n });
  });
});

describe('cancellation charges only execution already incurred, no creator fee', () => {
  it('cancelled while queued: nothing incurred, 0 charged', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const cancelled = await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key: p.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.run.status).toBe('cancelled');
    const b = await billing(s, p);
    expectSettlement(b, p.quote, { outcome: 'cancelled', creatorFee: 0n, platformFee: 0n, execution: 0n });
    expect(b.authorizedRpcCalls).toBe(0);
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 0n });
  });

  it('cancelled while running after the first half of the reads: those reads only', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 41, modelCostAtomic: '777', durationSeconds: 40 });
    const state = await untilStep(s, p.run.id, ({ run }) => run.rpcUsed > 0);
    expect(state.run.status).toBe('running');
    expect(state.run.rpcUsed).toBe(20);
    const cancelled = await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key: p.key });
    expect(cancelled.body.run.status).toBe('cancelled');
    const b = await billing(s, p);
    expectSettlement(b, p.quote, { outcome: 'cancelled', creatorFee: 0n, platformFee: 0n, execution: 20n * t.rate });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 20n * t.rate });
  });

  it('cancelled while running after the analysis: every read plus the model cost used', async () => {
    const s = await start();
    const p = await buy(s, 'local_custody');
    const t = terms(p.quote);
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 41, modelCostAtomic: '123456789', durationSeconds: 40 });
    const state = await untilStep(s, p.run.id, ({ events }) => stepsOf(events).includes('analysis'));
    expect(state.run.status).toBe('running');
    await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key: p.key });
    const execution = 41n * t.rate + 123_456_789n;
    expectSettlement(await billing(s, p), p.quote, { outcome: 'cancelled', creatorFee: 0n, platformFee: 0n, execution });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.local_custody, { charged: execution });
  });

  it('cancelled with reads lacking a confirmed receipt: the incurred execution charges, the unconfirmed part is held pending', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const t = terms(p.quote);
    await script(s, p.run.id, { outcome: 'succeeded', rpcCalls: 30, unconfirmedRpcCalls: 4, modelCostAtomic: '0', durationSeconds: 40 });
    await untilStep(s, p.run.id, ({ run }) => run.rpcUsed === 30);
    await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key: p.key });
    const b = await billing(s, p);
    expect(b).toMatchObject({ status: 'pending', settlement: null, heldAtomic: (4n * t.rate).toString(), authorizedRpcCalls: 30, reconciledRpcCalls: 26, unresolvedRpcCalls: 4 });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 26n * t.rate, pending: 4n * t.rate, keySpend: t.max });
  });
});

describe('reads without a confirmed receipt: billing pending, then reconciliation', () => {
  async function pendingRun(profile: Profile = 'solana_sol') {
    const s = await start();
    const p = await buy(s, profile, { input: tokenInput('c0de') });
    const t = terms(p.quote);
    const { run, billing: b, events } = await untilEnded(s, p.run.id);
    return { s, p, t, run, b, events };
  }

  it('c0de: succeeds with its last 3 reads unconfirmed; that part stays held and the key spend is still the maximum', async () => {
    const { s, p, t, run, b, events } = await pendingRun();
    expect(run.status).toBe('succeeded');
    expect(run.plan).toMatchObject({ source: 'magic-input', unconfirmedRpcCalls: 3 });
    const held = 3n * t.rate;
    const confirmed = BigInt(run.rpcUsed - 3) * t.rate + BigInt(run.plan.modelCostAtomic);
    expect(b).toMatchObject({
      status: 'pending',
      settlement: null,
      heldAtomic: held.toString(),
      authorizedRpcCalls: run.rpcUsed,
      reconciledRpcCalls: run.rpcUsed - 3,
      unresolvedRpcCalls: 3,
    });
    expect(b.pendingReason).toMatch(PENDING_REASON);
    expect(await billing(s, p)).toEqual(b);
    expect(stepsOf(events).slice(-2)).toEqual(['succeeded', 'billing-pending']);
    // The creator fee and the confirmed execution are posted; the held part is pending; the key still counts the maximum.
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: t.gross + confirmed, pending: held, keySpend: t.max });
    const receipt = await s.json({ url: `/v1/runs/${p.run.id}/receipt`, key: p.key });
    expect(receipt.status).toBe(404);
  });

  it('reconcile { confirmed: true } charges the held part', async () => {
    const { s, p, t, run } = await pendingRun('solana_usdc');
    const reconciled = await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/reconcile`, body: { confirmed: true } });
    expect(reconciled.status, JSON.stringify(reconciled.body)).toBe(200);
    const execution = BigInt(run.rpcUsed) * t.rate + BigInt(run.plan.modelCostAtomic);
    expectSettlement(reconciled.body.billing, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution });
    expect(reconciled.body.billing).toMatchObject({ heldAtomic: '0', reconciledRpcCalls: run.rpcUsed, unresolvedRpcCalls: 0 });
    expect(await billing(s, p)).toEqual(reconciled.body.billing);
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_usdc, { charged: t.gross + execution });
    const events = (await simRun(s, p.run.id)).events;
    expect(stepsOf(events).at(-1)).toBe('reconciled');
  });

  it('reconcile { confirmed: false } returns the held part to available', async () => {
    const { s, p, t, run } = await pendingRun();
    const reconciled = await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/reconcile`, body: { confirmed: false } });
    expect(reconciled.status).toBe(200);
    const execution = BigInt(run.rpcUsed - 3) * t.rate + BigInt(run.plan.modelCostAtomic);
    expectSettlement(reconciled.body.billing, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: t.gross + execution });
  });

  it('reconciling a billing that is not pending is 409 (reserved, settled, already reconciled); an unknown run is 404', async () => {
    const { s, p } = await pendingRun();
    const reserved = await buy(s, 'solana_sol');
    const settled = await buy(s, 'solana_sol');
    await s.json({ method: 'POST', url: `/v1/runs/${settled.run.id}/cancel`, key: settled.key });

    const onReserved = await s.json({ method: 'POST', url: `/sim/runs/${reserved.run.id}/reconcile`, body: { confirmed: true } });
    expect(onReserved.status).toBe(409);
    expect(onReserved.body.error.message).toMatch(/reserved, not pending/);
    const onSettled = await s.json({ method: 'POST', url: `/sim/runs/${settled.run.id}/reconcile`, body: { confirmed: false } });
    expect(onSettled.status).toBe(409);
    expect(onSettled.body.error.message).toMatch(/settled, not pending/);

    expect((await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/reconcile`, body: { confirmed: true } })).status).toBe(200);
    const before = await balance(s, p.accountId, 'solana_sol');
    const again = await s.json({ method: 'POST', url: `/sim/runs/${p.run.id}/reconcile`, body: { confirmed: false } });
    expect(again.status).toBe(409);
    expect(await balance(s, p.accountId, 'solana_sol')).toEqual(before);

    const unknown = await s.json({ method: 'POST', url: '/sim/runs/00000000-0000-4000-8000-000000000000/reconcile', body: { confirmed: true } });
    expect(unknown.status).toBe(404);
    const invalid = await s.json({ method: 'POST', url: `/sim/runs/${reserved.run.id}/reconcile`, body: { confirmed: 'yes' } });
    expect(invalid.status).toBe(400);
  });

  it('advancing the clock never settles a pending billing by itself', async () => {
    const { s, p, t } = await pendingRun();
    await advance(s, { seconds: 7 * 86_400 });
    const b = await simRun(s, p.run.id);
    expect(b.billing.status).toBe('pending');
    expect((await balance(s, p.accountId, 'solana_sol')).pendingAtomic).toBe((3n * t.rate).toString());
  });
});
