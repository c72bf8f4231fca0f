import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Shared helpers of the quotes suite (not a test file). Everything here is written from the spec, not from sim/. */

export type Profile = 'solana_sol' | 'solana_usdc' | 'local_custody' | 'sim';

export const SOL_ASSET = 'solana:mainnet-beta/native';
export const USDC_ASSET = 'solana:mainnet-beta/spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const ETH_ASSET = 'eip155:4663/native';
export const SIM_ASSET = 'sim:local/credit';

/** The route prefix of each profile's rail (spec 4 and the rehearsal routes). */
export const RAIL: Record<Profile, string> = {
  solana_sol: '/v1/solana-custody',
  solana_usdc: '/v1/solana-custody',
  local_custody: '/v1/custody',
  sim: '/v1/rehearsal',
};
export const ASSET_ID: Record<Profile, string> = { solana_sol: SOL_ASSET, solana_usdc: USDC_ASSET, local_custody: ETH_ASSET, sim: SIM_ASSET };
export const ACCOUNT_TYPE: Record<Profile, 'solana' | 'evm'> = { solana_sol: 'solana', solana_usdc: 'solana', local_custody: 'evm', sim: 'evm' };

export const ALL_SCOPES = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read'];

export const EVM_ADDRESS = '0x' + 'ab'.repeat(20);
export const tokenInput = (chain = 'ethereum') => ({ chain, address: EVM_ADDRESS });

export const rejected = (message: string) => ({ error: { code: 'request_rejected', message } });
export const OTHER_ENVIRONMENT = rejected('This API key is restricted to a different payment environment.');
export const LISTING_NOT_ALLOWED = rejected('This API key is not allowed to use this listing.');
export const SPEND_LIMIT = rejected('Accepting this quote would exceed the API key spend limit.');
export const LISTING_NOT_FOUND = { error: { code: 'not_found', message: 'This agent listing was not found.' } };

/** A ledger refusal: 409, the ledger code, a message of the form 'Accounting rejected this action: <reason>.' */
export function expectLedger(response: { status: number; body: any }, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(409);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.message).toMatch(/^Accounting rejected this action: .+\.$/);
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(Object.keys(response.body.error).sort()).toEqual(['code', 'message']);
}

// ---------------------------------------------------------------------------
// Canonical JSON and the contract hash, written independently of sim/domain.
// ---------------------------------------------------------------------------

/** Sorted keys (by UTF-16 code units), no whitespace, JSON string/number/literal forms. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map((v) => canonical(v)).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    keys.sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonical((value as Record<string, unknown>)[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

/** The contract terms of a quote response (docs/contract-hash.md). */
export function contractTermsOf(quote: any, assetId: string) {
  return {
    quoteId: quote.id,
    listingId: quote.listingId,
    versionId: quote.versionId,
    input: quote.input,
    resultPolicy: quote.resultPolicy,
    priceRevision: quote.priceRevision,
    asset: { assetId, namespace: quote.asset.namespace, cluster: quote.asset.cluster, kind: quote.asset.kind, decimals: quote.asset.decimals },
    amounts: {
      maximumBuyerDebitAtomic: quote.maximumBuyerDebitAtomic,
      grossCreatorFeeAtomic: quote.grossCreatorFeeAtomic,
      platformFeeAtomic: quote.platformFeeAtomic,
      creatorCreditAtomic: quote.creatorCreditAtomic,
      maxExecutionChargeAtomic: quote.maxExecutionChargeAtomic,
      feeBps: quote.feeBps,
    },
    expiresAt: quote.expiresAt,
  };
}

export const recomputeHash = (quote: any, assetId: string) => createHash('sha256').update(canonical(contractTermsOf(quote, assetId)), 'utf8').digest('hex');

// ---------------------------------------------------------------------------
// Provisioning through the control API
// ---------------------------------------------------------------------------

export async function createAccount(s: TestSimulator, type: 'solana' | 'evm'): Promise<string> {
  const r = await s.json({ method: 'POST', url: '/sim/accounts', body: { type } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.account.id;
}

export async function deposit(s: TestSimulator, accountId: string, profile: Profile, amountAtomic: string | bigint): Promise<void> {
  const r = await s.json({ method: 'POST', url: `/sim/accounts/${accountId}/deposits`, body: { profile, amountAtomic: String(amountAtomic) } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

export async function createKey(s: TestSimulator, accountId: string, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const r = await s.json({ method: 'POST', url: `/sim/accounts/${accountId}/keys`, body: { scopes: ALL_SCOPES, ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.key.id, secret: r.body.secret };
}

export interface Buyer {
  accountId: string;
  keyId: string;
  secret: string;
  profile: Profile;
}

/** A fresh account of the profile's type, funded with `depositAtomic` (none when '0'), with one key. */
export async function provision(
  s: TestSimulator,
  profile: Profile,
  options: { depositAtomic?: string | bigint; spendLimitAtomic?: string | bigint; listingIds?: string[]; accountId?: string } = {},
): Promise<Buyer> {
  const accountId = options.accountId ?? (await createAccount(s, ACCOUNT_TYPE[profile]));
  const amount = String(options.depositAtomic ?? 10n ** 24n);
  if (amount !== '0') await deposit(s, accountId, profile, amount);
  const key = await createKey(s, accountId, {
    profile,
    spendLimitAtomic: String(options.spendLimitAtomic ?? 10n ** 30n),
    ...(options.listingIds ? { listingIds: options.listingIds } : {}),
  });
  return { accountId, keyId: key.id, secret: key.secret, profile };
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

export async function createQuote(s: TestSimulator, buyer: Pick<Buyer, 'secret' | 'profile'>, body: Record<string, unknown>) {
  return s.json({ method: 'POST', url: `${RAIL[buyer.profile]}/quotes`, key: buyer.secret, body });
}

/** Creates a quote that must succeed; Solana keys name their own asset. */
export async function quoteOk(s: TestSimulator, buyer: Pick<Buyer, 'secret' | 'profile'>, listingId: string, input: unknown = tokenInput(), extra: Record<string, unknown> = {}) {
  const solana = buyer.profile === 'solana_sol' || buyer.profile === 'solana_usdc';
  const r = await createQuote(s, buyer, { listingId, input, ...(solana ? { assetId: ASSET_ID[buyer.profile] } : {}), ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.quote;
}

export async function accept(s: TestSimulator, buyer: Pick<Buyer, 'secret' | 'profile'>, quoteId: string, body: Record<string, unknown>) {
  return s.json({ method: 'POST', url: `${RAIL[buyer.profile]}/quotes/${quoteId}/accept`, key: buyer.secret, body });
}

let idem = 0;
/** A fresh idempotency key (8 to 128 characters of A-Z a-z 0-9 _ -). */
export const idempotencyKey = (label = 'k') => `${label}-${String(++idem).padStart(8, '0')}`;

export async function acceptOk(s: TestSimulator, buyer: Pick<Buyer, 'secret' | 'profile'>, quote: { id: string; contractHash: string }, key = idempotencyKey()) {
  const r = await accept(s, buyer, quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey: key });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body;
}

export async function balances(s: TestSimulator, accountId: string): Promise<Array<Record<string, string>>> {
  const r = await s.json({ url: `/sim/accounts/${accountId}` });
  expect(r.status).toBe(200);
  return r.body.balances;
}

export async function balanceOf(s: TestSimulator, accountId: string, profile: Profile): Promise<Record<string, string>> {
  const found = (await balances(s, accountId)).find((b) => b.profile === profile);
  return found ?? { profile, assetId: ASSET_ID[profile], depositedAtomic: '0', availableAtomic: '0', reservedAtomic: '0', pendingAtomic: '0', chargedAtomic: '0' };
}

/** The key's committed spend, read by the key itself (GET /v1/buyer/key). */
export async function spendUsed(s: TestSimulator, secret: string): Promise<string> {
  const r = await s.json({ url: '/v1/buyer/key', key: secret });
  expect(r.status).toBe(200);
  return r.body.key.spendUsedAtomic;
}

export async function runsOf(s: TestSimulator, accountId: string): Promise<Array<Record<string, any>>> {
  const r = await s.json({ url: `/sim/runs?accountId=${accountId}` });
  expect(r.status).toBe(200);
  return r.body.runs;
}

/**
 * Everything an acceptance could change for an account and its keys: balances,
 * each key's committed spend, runs, and the store's quote/acceptance records.
 */
export async function observe(s: TestSimulator, accountId: string, secrets: string[]) {
  const store = s.sim.deps.store;
  return {
    balances: await balances(s, accountId),
    spend: await Promise.all(secrets.map((secret) => spendUsed(s, secret))),
    runs: (await runsOf(s, accountId)).map((r) => ({ id: r.id, status: r.status })),
    reservations: store.all('reservations').filter((r) => r.accountId === accountId).length,
    acceptances: store.all('acceptances').filter((a) => a.accountId === accountId).length,
    quotes: store.all('quotes').filter((q) => q.accountId === accountId).map((q) => ({ id: q.id, acceptedBy: q.acceptedBy })),
    ledgerEntries: store.all('ledgerEntries').filter((e) => e.accountId === accountId).length,
  };
}

export async function advance(s: TestSimulator, seconds: number): Promise<void> {
  const r = await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

export async function clockNow(s: TestSimulator): Promise<string> {
  return (await s.json({ url: '/sim/clock' })).body.now;
}

export const big = (x: string) => BigInt(x);

/** For a test file: one simulator without demo data and a buyer per profile, made before its tests and destroyed after them. */
export function sharedBuyers(): { s: TestSimulator; buyers: Record<Profile, Buyer> } {
  const shared = {} as { s: TestSimulator; buyers: Record<Profile, Buyer> };
  beforeAll(async () => {
    shared.s = await startSimulator({ demo: false });
    shared.buyers = await provisionBuyers(shared.s);
  });
  afterAll(async () => {
    await shared.s?.destroy();
  });
  return shared;
}

/** One buyer per profile on a simulator without demo data: SOL and USDC share a Solana account, ETH and sim an EVM one. */
export async function provisionBuyers(s: TestSimulator): Promise<Record<Profile, Buyer>> {
  const solana_sol = await provision(s, 'solana_sol');
  const solana_usdc = await provision(s, 'solana_usdc', { accountId: solana_sol.accountId });
  const local_custody = await provision(s, 'local_custody');
  const sim = await provision(s, 'sim', { accountId: local_custody.accountId });
  return { solana_sol, solana_usdc, local_custody, sim };
}
