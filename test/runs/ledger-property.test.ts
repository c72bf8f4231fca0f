import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { ASSETS } from '../../sim/domain/catalog/index.ts';
import type { Profile } from '../../sim/domain/catalog/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { expectLedger, RAIL, TERMINAL, tokenInput } from './support.ts';

/**
 * Random mixes of accepts, scripts, cancels, clock advances and
 * reconciliations over HTTP; after every step:
 *  - every balance: deposited = available + reserved + pending + charged;
 *  - reserved = the maximums of reserved billings, pending = the held parts of pending ones (per account and asset);
 *  - every settled billing charged creatorFee + platformFee + execution, never above its quote maximum;
 *  - per key: spendUsedAtomic = maximums of its reserved and pending billings + charges of its settled ones;
 *  - every ended run has exactly one settlement (billing settled or pending, never reserved) and queued or
 *    running runs have billing reserved and no settlement.
 * Each control call's answer is also predicted from the state before it.
 */

const PROFILES: Profile[] = ['solana_sol', 'solana_usdc', 'local_custody', 'sim'];
const SUFFIXES = ['', '', '', 'fa11', 'dead', '0a0a', '0b0b', 'c0de', 'c0de', '5105'];
const MAX_RPC = 120; // the token research agent's maximumRpcCalls

type Action =
  | { kind: 'accept'; profile: number; suffix: string; canonical: boolean }
  | { kind: 'script'; pick: number; focus: boolean; outcome: 'succeeded' | 'partial' | 'failed'; rpcCalls?: number; unconfirmedRpcCalls?: number; modelPermille?: number; durationSeconds?: number; failure?: 'platform' | 'research' }
  | { kind: 'cancel'; pick: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'next' }
  | { kind: 'reconcile'; pick: number; focus: boolean; confirmed: boolean };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('accept' as const), profile: fc.nat(PROFILES.length - 1), suffix: fc.constantFrom(...SUFFIXES), canonical: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('script' as const),
        pick: fc.nat(50),
        focus: fc.boolean(),
        outcome: fc.constantFrom('succeeded' as const, 'partial' as const, 'failed' as const),
        rpcCalls: fc.nat(MAX_RPC + 5),
        unconfirmedRpcCalls: fc.nat(8),
        modelPermille: fc.nat(1100),
        durationSeconds: fc.integer({ min: 1, max: 420 }),
        failure: fc.constantFrom('platform' as const, 'research' as const),
      },
      { requiredKeys: ['kind', 'pick', 'focus', 'outcome'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(50) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 60 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'next' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reconcile' as const), pick: fc.nat(50), focus: fc.boolean(), confirmed: fc.boolean() }) },
);

interface ModelRun {
  id: string;
  profile: Profile;
  key: string;
  accountId: string;
  maximum: bigint;
  creatorCredit: bigint;
  maxExecution: bigint;
  modelCap: bigint;
}

interface Model {
  runs: ModelRun[];
  acceptedAt: Map<string, number[]>;
}

async function ok(s: TestSimulator, options: Parameters<TestSimulator['json']>[0], status = 200) {
  const response = await s.json(options);
  expect(response.status, `${options.method ?? 'GET'} ${options.url}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

const simRun = (s: TestSimulator, id: string) => ok(s, { url: `/sim/runs/${id}` });
const clockNow = async (s: TestSimulator) => Date.parse((await ok(s, { url: '/sim/clock' })).now);

/**
 * The run an action works on: any run of the model, or with `focus` one it can
 * change (a queued or running run for a script, a pending billing for a
 * reconciliation), so that both the refusals and the changes are exercised.
 */
async function pick(s: TestSimulator, model: Model, action: Action): Promise<ModelRun | null> {
  if (!('pick' in action) || model.runs.length === 0) return null;
  let candidates = model.runs;
  if ('focus' in action && action.focus) {
    const states = await Promise.all(model.runs.map((r) => simRun(s, r.id)));
    const focused = model.runs.filter((_, i) => (action.kind === 'script' ? !TERMINAL.includes(states[i].run.status) : states[i].billing.status === 'pending'));
    if (focused.length > 0) candidates = focused;
  }
  return candidates[action.pick % candidates.length];
}

async function perform(s: TestSimulator, model: Model, action: Action): Promise<void> {
  const picked = await pick(s, model, action);
  switch (action.kind) {
    case 'accept': {
      const profile = PROFILES[action.profile];
      const key = s.secret(profile);
      const accountId = s.demo.find((d) => d.profile === profile)!.accountId;
      const body: Record<string, unknown> = { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(action.suffix), resultPolicy: action.canonical ? 'canonical_metadata' : 'complete_only' };
      if (profile === 'solana_usdc') body.assetId = ASSETS.solana_usdc.assetId;
      const quote = (await ok(s, { method: 'POST', url: `${RAIL[profile]}/quotes`, key, body }, 201)).quote;
      const active = (await ok(s, { url: `/sim/runs?accountId=${accountId}` })).runs.filter((r: { status: string }) => !TERMINAL.includes(r.status)).length;
      const now = await clockNow(s);
      const recent = (model.acceptedAt.get(accountId) ?? []).filter((t) => t > now - 86_400_000).length;
      const accepted = await s.json({ method: 'POST', url: `${RAIL[profile]}/quotes/${quote.id}/accept`, key, body: { acceptedContractHash: quote.contractHash, idempotencyKey: `prop-${model.runs.length}-${now}-${action.profile}` } });
      if (active >= 3 || recent >= 20) {
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(429);
        return;
      }
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
      model.acceptedAt.set(accountId, [...(model.acceptedAt.get(accountId) ?? []), now]);
      model.runs.push({
        id: accepted.body.run.id,
        profile,
        key,
        accountId,
        maximum: BigInt(quote.maximumBuyerDebitAtomic),
        creatorCredit: BigInt(quote.creatorCreditAtomic),
        maxExecution: BigInt(quote.maxExecutionChargeAtomic),
        modelCap: BigInt(quote.modelExecution.costCapAtomic),
      });
      return;
    }
    case 'script': {
      if (!picked) return;
      const before = (await simRun(s, picked.id)).run;
      const body: Record<string, unknown> = { outcome: action.outcome };
      if (action.rpcCalls !== undefined) body.rpcCalls = action.rpcCalls;
      if (action.unconfirmedRpcCalls !== undefined) body.unconfirmedRpcCalls = action.unconfirmedRpcCalls;
      if (action.modelPermille !== undefined) body.modelCostAtomic = ((picked.modelCap * BigInt(action.modelPermille)) / 1000n).toString();
      if (action.durationSeconds !== undefined) body.durationSeconds = action.durationSeconds;
      if (action.failure !== undefined) body.failure = action.failure;
      const response = await s.json({ method: 'POST', url: `/sim/runs/${picked.id}/script`, body });
      const rpc = action.rpcCalls ?? before.plan.rpcCalls;
      const model = BigInt((body.modelCostAtomic as string | undefined) ?? before.plan.modelCostAtomic);
      const invalid = rpc > MAX_RPC || rpc < before.rpcUsed || (action.unconfirmedRpcCalls ?? 0) > rpc || model > picked.modelCap || (action.failure !== undefined && action.outcome !== 'failed');
      const expected = TERMINAL.includes(before.status) ? 409 : invalid ? 400 : 200;
      expect(response.status, JSON.stringify({ body, response: response.body })).toBe(expected);
      if (expected === 200) expect((await simRun(s, picked.id)).run.plan).toMatchObject({ outcome: action.outcome, rpcCalls: rpc, source: 'script' });
      return;
    }
    case 'cancel': {
      if (!picked) return;
      const before = (await ok(s, { url: `/v1/runs/${picked.id}`, key: picked.key })).run;
      const after = (await ok(s, { method: 'POST', url: `/v1/runs/${picked.id}/cancel`, key: picked.key })).run;
      if (TERMINAL.includes(before.status)) expect(after).toEqual(before);
      else expect(after.status).toBe('cancelled');
      return;
    }
    case 'advance':
      await ok(s, { method: 'POST', url: '/sim/clock/advance', body: { seconds: action.seconds } });
      return;
    case 'next': {
      // Only towards run steps: the next job after them would be a quote expiry or a key expiry months away.
      const pendingStep = s.sim.deps.store.all('jobs').some((j) => j.kind === 'run.step');
      if (pendingStep) await ok(s, { method: 'POST', url: '/sim/clock/advance', body: { next: true } });
      return;
    }
    case 'reconcile': {
      if (!picked) return;
      const before = (await simRun(s, picked.id)).billing;
      const response = await s.json({ method: 'POST', url: `/sim/runs/${picked.id}/reconcile`, body: { confirmed: action.confirmed } });
      expect(response.status, JSON.stringify(response.body)).toBe(before.status === 'pending' ? 200 : 409);
      if (response.status === 200) expect(response.body.billing.status).toBe('settled');
      return;
    }
  }
}

async function checkInvariants(s: TestSimulator, model: Model): Promise<void> {
  const reserved = new Map<string, bigint>();
  const pending = new Map<string, bigint>();
  const spend = new Map<string, bigint>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);

  for (const r of model.runs) {
    const { run, billing, events } = await simRun(s, r.id);
    const settlements = events.filter((e: { step: string }) => e.step === 'settled' || e.step === 'billing-pending').length;
    const where = `run ${r.id} (${run.status}, billing ${billing.status})`;
    if (TERMINAL.includes(run.status)) {
      expect(['settled', 'pending'], where).toContain(billing.status);
      expect(settlements, where).toBe(1);
    } else {
      expect(billing.status, where).toBe('reserved');
      expect(billing.settlement, where).toBeNull();
      expect(settlements, where).toBe(0);
    }
    const balanceKey = `${r.accountId}:${r.profile}`;
    if (billing.status === 'reserved') {
      add(reserved, balanceKey, r.maximum);
      add(spend, r.key, r.maximum);
    } else if (billing.status === 'pending') {
      expect(BigInt(billing.heldAtomic) > 0n, where).toBe(true);
      expect(billing.pendingReason, where).toEqual(expect.any(String));
      add(pending, balanceKey, BigInt(billing.heldAtomic));
      add(spend, r.key, r.maximum);
    } else {
      const st = billing.settlement;
      const charged = BigInt(st.chargedAtomic);
      expect(charged <= r.maximum, where).toBe(true);
      expect(BigInt(st.creatorFeeAtomic) + BigInt(st.platformFeeAtomic) + BigInt(st.executionChargeAtomic), where).toBe(charged);
      expect(BigInt(st.executionChargeAtomic) <= r.maxExecution, where).toBe(true);
      expect([0n, r.creatorCredit], where).toContain(BigInt(st.creatorFeeAtomic));
      expect(billing.heldAtomic, where).toBe('0');
      add(spend, r.key, charged);
    }
  }

  for (const accountId of new Set(s.demo.map((d) => d.accountId))) {
    const { balances } = await ok(s, { url: `/sim/accounts/${accountId}` });
    for (const b of balances) {
      expectLedger(b);
      expect(BigInt(b.reservedAtomic), `${accountId} ${b.profile} reserved`).toBe(reserved.get(`${accountId}:${b.profile}`) ?? 0n);
      expect(BigInt(b.pendingAtomic), `${accountId} ${b.profile} pending`).toBe(pending.get(`${accountId}:${b.profile}`) ?? 0n);
    }
  }
  for (const profile of PROFILES) {
    const key = s.secret(profile);
    const view = (await ok(s, { url: '/v1/buyer/key', key })).key;
    expect(BigInt(view.spendUsedAtomic), `${profile} key spend`).toBe(spend.get(key) ?? 0n);
  }
}

describe('ledger property', () => {
  it('random accepts, scripts, cancels, clock advances and reconciliations keep every invariant after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 12, maxLength: 36, size: 'max' }), async (actions) => {
        const s = await startSimulator();
        try {
          const model: Model = { runs: [], acceptedAt: new Map() };
          await checkInvariants(s, model);
          for (const action of actions) {
            await perform(s, model, action);
            await checkInvariants(s, model);
          }
          // Drain: every run ends, and the invariants still hold with everything settled or pending.
          for (let i = 0; i < 40 && s.sim.deps.store.all('jobs').some((j) => j.kind === 'run.step'); i += 1) {
            await ok(s, { method: 'POST', url: '/sim/clock/advance', body: { next: true } });
          }
          await checkInvariants(s, model);
          for (const r of model.runs) expect(TERMINAL).toContain((await simRun(s, r.id)).run.status);
          // Reconcile whatever is still pending, alternately confirmed and not: then everything is settled.
          let flip = false;
          for (const r of model.runs) {
            if ((await simRun(s, r.id)).billing.status !== 'pending') continue;
            flip = !flip;
            await perform(s, model, { kind: 'reconcile', pick: model.runs.indexOf(r), focus: false, confirmed: flip });
            await checkInvariants(s, model);
          }
          for (const r of model.runs) expect((await simRun(s, r.id)).billing.status).toBe('settled');
        } finally {
          await s.destroy();
        }
      }),
      { numRuns: 20 },
    );
  });
});
