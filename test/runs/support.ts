import { expect } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { ASSETS } from '../../sim/domain/catalog/index.ts';
import type { Profile } from '../../sim/domain/catalog/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Shared helpers of the run suite (not a test file). */

export const TERMINAL = ['succeeded', 'partial', 'failed', 'cancelled'];
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const MSG = {
  runNotFound: { error: { code: 'not_found', message: 'This run was not found.' } },
  noReceipt: { error: { code: 'not_found', message: 'This run has no settlement receipt.' } },
  otherEnvironment: { error: { code: 'request_rejected', message: 'This API key is restricted to a different payment environment.' } },
  listingNotAllowed: { error: { code: 'request_rejected', message: 'This API key is not allowed to use this listing.' } },
  missingScope: { error: { code: 'request_rejected', message: 'This API key does not have the scope required for this route.' } },
};

/** The route prefix (rail) each profile's key quotes, accepts and reads billing on. */
export const RAIL: Record<Profile, string> = {
  solana_sol: '/v1/solana-custody',
  solana_usdc: '/v1/solana-custody',
  local_custody: '/v1/custody',
  sim: '/v1/rehearsal',
};

/** Simulators started by a test file; `stopAll` in afterEach closes them and removes their stores. */
const started: TestSimulator[] = [];

export async function start(options: Parameters<typeof startSimulator>[0] = {}): Promise<TestSimulator> {
  const s = await startSimulator(options);
  started.push(s);
  return s;
}

export async function stopAll(): Promise<void> {
  for (const s of started.splice(0)) await s.destroy();
}

/** A 0x address of 42 characters ending in `suffix` (a magic suffix when it is one of docs/magic-inputs.md). */
export function address(suffix = '', fill = '7'): string {
  return `0x${fill.repeat(40 - suffix.length)}${suffix}`;
}

export const tokenInput = (suffix = '', chain = 'ethereum') => ({ chain, address: address(suffix) });

export interface Purchase {
  profile: Profile;
  key: string;
  accountId: string;
  quote: any;
  run: any;
  reservation: any;
}

/** The demo account holding a profile's demo key. */
export function accountOf(s: TestSimulator, profile: Profile): string {
  return s.demo.find((d) => d.profile === profile)!.accountId;
}

/** Creates a quote with a profile's demo key (or `key`) and returns the quote object. */
export async function quote(
  s: TestSimulator,
  profile: Profile,
  options: { listingId?: string; input?: unknown; resultPolicy?: string; key?: string } = {},
): Promise<any> {
  const body: Record<string, unknown> = { listingId: options.listingId ?? TOKEN_RESEARCH_LISTING_ID, input: options.input ?? tokenInput() };
  if (options.resultPolicy) body.resultPolicy = options.resultPolicy;
  if (profile === 'solana_usdc') body.assetId = ASSETS.solana_usdc.assetId;
  const response = await s.json({ method: 'POST', url: `${RAIL[profile]}/quotes`, key: options.key ?? s.secret(profile), body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.quote;
}

/** Idempotency keys count per simulator, so the same session sends the same requests to every simulator. */
const idempotencySeq = new WeakMap<TestSimulator, number>();

/** Quote and accept: the run is queued and the quote maximum reserved. */
export async function buy(
  s: TestSimulator,
  profile: Profile,
  options: { listingId?: string; input?: unknown; resultPolicy?: string; key?: string } = {},
): Promise<Purchase> {
  const key = options.key ?? s.secret(profile);
  const q = await quote(s, profile, { ...options, key });
  const seq = (idempotencySeq.get(s) ?? 0) + 1;
  idempotencySeq.set(s, seq);
  const accepted = await s.json({
    method: 'POST',
    url: `${RAIL[profile]}/quotes/${q.id}/accept`,
    key,
    body: { acceptedContractHash: q.contractHash, idempotencyKey: `runs-suite-${seq}` },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  expect(accepted.body.run.status).toBe('queued');
  return { profile, key, accountId: accountOf(s, profile), quote: q, run: accepted.body.run, reservation: accepted.body.reservation };
}

export async function advance(s: TestSimulator, body: { seconds: number } | { next: true } | { to: string }): Promise<any> {
  const response = await s.json({ method: 'POST', url: '/sim/clock/advance', body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export async function now(s: TestSimulator): Promise<number> {
  return Date.parse((await s.json({ url: '/sim/clock' })).body.now);
}

/** GET /sim/runs/{id}: { run (with plan, pinned, profile, accountId), events, billing }. */
export async function simRun(s: TestSimulator, runId: string): Promise<{ run: any; events: any[]; billing: any }> {
  const response = await s.json({ url: `/sim/runs/${runId}` });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Advances job by job until the run is terminal (bounded: a run has at most six steps). */
export async function untilEnded(s: TestSimulator, runId: string): Promise<{ run: any; events: any[]; billing: any }> {
  for (let i = 0; i < 12; i += 1) {
    const state = await simRun(s, runId);
    if (TERMINAL.includes(state.run.status)) return state;
    await advance(s, { next: true });
  }
  throw new Error(`run ${runId} did not end`);
}

/** Advances job by job until `predicate` holds for the run (bounded), failing if the run ends first. */
export async function untilStep(s: TestSimulator, runId: string, predicate: (state: { run: any; events: any[] }) => boolean): Promise<{ run: any; events: any[]; billing: any }> {
  for (let i = 0; i < 12; i += 1) {
    const state = await simRun(s, runId);
    if (predicate(state)) return state;
    if (TERMINAL.includes(state.run.status)) throw new Error(`run ${runId} ended before the awaited step`);
    await advance(s, { next: true });
  }
  throw new Error(`run ${runId} never reached the awaited step`);
}

export const stepsOf = (events: Array<{ step: string }>) => events.map((e) => e.step);

export async function balance(s: TestSimulator, accountId: string, profile: Profile): Promise<Record<string, string>> {
  const response = await s.json({ url: `/sim/accounts/${accountId}` });
  expect(response.status).toBe(200);
  const found = response.body.balances.find((b: { profile: string }) => b.profile === profile);
  expect(found, `no ${profile} balance`).toBeDefined();
  return found;
}

/** deposited = available + reserved + pending + charged, every part a non-negative integer string. */
export function expectLedger(b: Record<string, string>): void {
  for (const field of ['depositedAtomic', 'availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic']) {
    expect(b[field], field).toMatch(/^(0|[1-9][0-9]*)$/);
  }
  expect(BigInt(b.availableAtomic) + BigInt(b.reservedAtomic) + BigInt(b.pendingAtomic) + BigInt(b.chargedAtomic)).toBe(BigInt(b.depositedAtomic));
}

export async function keyOf(s: TestSimulator, secret: string): Promise<any> {
  const response = await s.json({ url: '/v1/buyer/key', key: secret });
  expect(response.status).toBe(200);
  return response.body.key;
}

export async function billing(s: TestSimulator, p: Pick<Purchase, 'profile' | 'key' | 'run'>): Promise<any> {
  const response = await s.json({ url: `${RAIL[p.profile]}/runs/${p.run.id}/billing`, key: p.key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export async function script(s: TestSimulator, runId: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return s.json({ method: 'POST', url: `/sim/runs/${runId}/script`, body });
}

/** The amounts of a quote, as BigInt, re-derived from its published fields (spec 2.7). */
export function terms(q: any) {
  const gross = BigInt(q.grossCreatorFeeAtomic);
  const platform = (gross * BigInt(q.feeBps)) / 10_000n;
  return {
    max: BigInt(q.maximumBuyerDebitAtomic),
    gross,
    platform,
    creator: gross - platform,
    rate: BigInt(q.unitCosts.rpcCallAtomic),
    cap: BigInt(q.maxExecutionChargeAtomic),
    modelCap: BigInt(q.modelExecution?.costCapAtomic ?? '0'),
  };
}

export interface ExpectedSettlement {
  outcome: string;
  creatorFee: bigint;
  platformFee: bigint;
  execution: bigint;
}

/** A settled billing with exactly these amounts, never above the quote maximum; the fee split adds up. */
export function expectSettlement(b: any, q: any, expected: ExpectedSettlement): void {
  expect(b.status).toBe('settled');
  expect(b.pendingReason).toBeNull();
  const charged = expected.creatorFee + expected.platformFee + expected.execution;
  expect(b.settlement).toMatchObject({
    outcome: expected.outcome,
    chargedAtomic: charged.toString(),
    creatorFeeAtomic: expected.creatorFee.toString(),
    platformFeeAtomic: expected.platformFee.toString(),
    executionChargeAtomic: expected.execution.toString(),
  });
  expect(charged <= BigInt(q.maximumBuyerDebitAtomic)).toBe(true);
}

/**
 * After a run of a fresh demo balance settled: the charge is posted, the
 * reservation remainder is back in available, nothing stays reserved, and the
 * key's committed spend is the amount charged (or the maximum while pending).
 */
export async function expectMoneyAfter(
  s: TestSimulator,
  p: Purchase,
  depositedBefore: bigint,
  expected: { charged: bigint; pending?: bigint; keySpend?: bigint },
): Promise<void> {
  const b = await balance(s, p.accountId, p.profile);
  expectLedger(b);
  const pending = expected.pending ?? 0n;
  expect(b).toMatchObject({
    depositedAtomic: depositedBefore.toString(),
    reservedAtomic: '0',
    pendingAtomic: pending.toString(),
    chargedAtomic: expected.charged.toString(),
    availableAtomic: (depositedBefore - expected.charged - pending).toString(),
  });
  const key = await keyOf(s, p.key);
  expect(key.spendUsedAtomic).toBe((expected.keySpend ?? expected.charged).toString());
}

/** Deposits of the demo accounts (sim/domain/demo.ts), the balance every fresh simulator starts from. */
export const DEMO_DEPOSIT: Record<Profile, bigint> = {
  solana_sol: 10_000_000_000n,
  solana_usdc: 500_000_000n,
  local_custody: 2_000_000_000_000_000_000n,
  sim: 1_000_000_000n,
};
