import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { accept, ASSET_ID, big, createAccount, createKey, deposit, observe, RAIL, type Profile } from './support.ts';

/**
 * Property: random sequences of deposits, quote creations, acceptances (valid, wrong
 * hash, replay, another quote's idempotency key, through the quote's key or
 * another), cancellations and clock advances. After every step:
 *  - every balance: deposited = available + reserved + pending + charged, none negative,
 *    deposited = what was deposited, reserved/pending/charged = what the runs' billings say;
 *  - every key: spendUsedAtomic = reservations of its unsettled runs + charges of its settled
 *    runs, never above its limit;
 *  - an acceptance answers what the spec's check order (4.5) predicts from the state
 *    before it, and a refusal or a replay changes nothing.
 */

const AMOUNT = /^(0|[1-9][0-9]*)$/;
const FIELDS = ['depositedAtomic', 'availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic'] as const;
const LIFETIME_MS = 240_000;

interface KeySpec { account: 0 | 1; profile: Profile; limitInMax: bigint }
/** Two accounts; account 0 (EVM) holds two ETH keys (one tight) and a sim key; account 1 (Solana) a SOL key. */
const KEYS: KeySpec[] = [
  { account: 0, profile: 'local_custody', limitInMax: 2n },
  { account: 0, profile: 'local_custody', limitInMax: 1000n },
  { account: 0, profile: 'sim', limitInMax: 3n },
  { account: 1, profile: 'solana_sol', limitInMax: 1000n },
];
const ACCOUNT_TYPES = ['evm', 'solana'] as const;
const PROFILES_OF: Profile[][] = [['local_custody', 'sim'], ['solana_sol']];

type Action =
  | { kind: 'deposit'; account: 0 | 1; profileIndex: number; halves: number }
  | { kind: 'quote'; key: number; chain: string; suffix: string }
  | { kind: 'accept'; quote: number; variant: 'valid' | 'wrongHash' | 'replay' | 'otherIdem'; otherKey: number | null }
  | { kind: 'cancel'; run: number }
  | { kind: 'advance'; seconds: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deposit' as const), account: fc.constantFrom(0 as const, 1 as const), profileIndex: fc.nat(1), halves: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('quote' as const), key: fc.nat(KEYS.length - 1), chain: fc.constantFrom('ethereum', 'base', 'chainx'), suffix: fc.constantFrom('abab', 'abab', 'c0de', 'fa11', '0a0a') }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('accept' as const),
      quote: fc.nat(40),
      variant: fc.constantFrom('valid' as const, 'valid' as const, 'wrongHash' as const, 'replay' as const, 'otherIdem' as const),
      otherKey: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(KEYS.length - 1) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), run: fc.nat(20) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(1, 7, 30, 113, 241, 600) }) },
);

let s: TestSimulator;
/** The token research maximum per profile (fixed by the fixtures). */
const maxOf = {} as Record<Profile, bigint>;

beforeAll(async () => {
  s = await startSimulator({ demo: false });
  const ctx = await provisionWorld([0n, 0n, 0n]);
  for (let k = 0; k < KEYS.length; k++) {
    const q = await createQuoteFor(ctx, k, 'ethereum', 'abab');
    maxOf[KEYS[k].profile] = big(q.maximumBuyerDebitAtomic);
  }
});
afterAll(async () => {
  await s?.destroy();
});

interface World {
  accounts: string[];
  keys: Array<{ id: string; secret: string; spec: KeySpec; limit: bigint }>;
  deposited: Map<string, bigint>; // `${accountId}:${profile}`
  quotes: Array<{ id: string; hash: string; expiresMs: number; max: bigint; key: number; account: number; profile: Profile }>;
  /** Account-scoped idempotency keys that were accepted: `${account}:${idem}` → quote and run. */
  accepted: Map<string, { quoteId: string; runId: string; idem: string; account: number; key: number; reservation: unknown }>;
  runs: Array<{ id: string; key: number }>;
  seq: number;
}

async function provisionWorld(initialHalves: bigint[]): Promise<World> {
  const accounts = [await createAccount(s, ACCOUNT_TYPES[0]), await createAccount(s, ACCOUNT_TYPES[1])];
  const world: World = { accounts, keys: [], deposited: new Map(), quotes: [], accepted: new Map(), runs: [], seq: 0 };
  const fundings: Array<[number, Profile]> = [[0, 'local_custody'], [0, 'sim'], [1, 'solana_sol']];
  for (let i = 0; i < fundings.length; i++) {
    const [account, profile] = fundings[i];
    const amount = maxOf[profile] ? (maxOf[profile] * initialHalves[i]) / 2n : 0n;
    if (amount > 0n) await deposit(s, accounts[account], profile, amount);
    world.deposited.set(`${accounts[account]}:${profile}`, amount);
  }
  for (const spec of KEYS) {
    const limit = (maxOf[spec.profile] ?? 10n ** 20n) * spec.limitInMax;
    const key = await createKey(s, accounts[spec.account], { profile: spec.profile, spendLimitAtomic: limit.toString() });
    world.keys.push({ ...key, spec, limit });
  }
  return world;
}

async function nowMs(): Promise<number> {
  return Date.parse((await s.json({ url: '/sim/clock' })).body.now);
}

async function createQuoteFor(world: World, k: number, chain: string, suffix: string) {
  const key = world.keys[k];
  const solana = key.spec.profile === 'solana_sol';
  const r = await s.json({
    method: 'POST',
    url: `${RAIL[key.spec.profile]}/quotes`,
    key: key.secret,
    body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: { chain, address: '0x' + '12'.repeat(18) + suffix }, ...(solana ? { assetId: ASSET_ID.solana_sol } : {}) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.quote;
}

/** The acceptance outcome spec 4.4/4.5 gives from the state before the request. */
async function predict(world: World, q: World['quotes'][number], k: number, hash: string, idem: string, expired: boolean): Promise<string> {
  const key = world.keys[k];
  if (q.account !== key.spec.account) return '404';
  if (q.profile !== key.spec.profile) return '403';
  const previous = world.accepted.get(`${key.spec.account}:${idem}`);
  if (previous) {
    if (previous.quoteId !== q.id) return 'idempotency_conflict';
    return hash === q.hash ? 'replay' : 'quote_contract_mismatch';
  }
  const committed = big((await s.json({ url: '/v1/buyer/key', key: key.secret })).body.key.spendUsedAtomic);
  if (committed + q.max > key.limit) return '403';
  if (hash !== q.hash) return 'quote_contract_mismatch';
  if (expired) return 'quote_expired';
  if ([...world.accepted.values()].some((a) => a.quoteId === q.id)) return 'quote_already_accepted';
  const balances = (await s.json({ url: `/sim/accounts/${world.accounts[q.account]}` })).body.balances as Array<Record<string, string>>;
  const available = big(balances.find((b) => b.profile === q.profile)?.availableAtomic ?? '0');
  if (available < q.max) return 'insufficient_available_credit';
  const runs = (await s.json({ url: `/sim/runs?accountId=${world.accounts[q.account]}` })).body.runs as Array<{ status: string; createdAt: string }>;
  const now = await nowMs();
  if (runs.filter((r) => r.status === 'queued' || r.status === 'running').length >= 3) return '429';
  if (runs.filter((r) => Date.parse(r.createdAt) > now - 86_400_000).length >= 20) return '429';
  return '202';
}

const outcomeOf = (r: { status: number; body: any }) => (r.status === 409 ? r.body.error.code : String(r.status));

async function step(world: World, action: Action): Promise<void> {
  switch (action.kind) {
    case 'deposit': {
      const profile = PROFILES_OF[action.account][action.profileIndex % PROFILES_OF[action.account].length];
      const amount = (maxOf[profile] * BigInt(action.halves)) / 2n + 1n;
      const accountId = world.accounts[action.account];
      await deposit(s, accountId, profile, amount);
      world.deposited.set(`${accountId}:${profile}`, (world.deposited.get(`${accountId}:${profile}`) ?? 0n) + amount);
      return;
    }
    case 'quote': {
      const quote = await createQuoteFor(world, action.key, action.chain, action.suffix);
      const spec = world.keys[action.key].spec;
      world.quotes.push({ id: quote.id, hash: quote.contractHash, expiresMs: Date.parse(quote.expiresAt), max: big(quote.maximumBuyerDebitAtomic), key: action.key, account: spec.account, profile: spec.profile });
      return;
    }
    case 'cancel': {
      if (world.runs.length === 0) return;
      const run = world.runs[action.run % world.runs.length];
      const r = await s.json({ method: 'POST', url: `/v1/runs/${run.id}/cancel`, key: world.keys[run.key].secret });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(['succeeded', 'partial', 'failed', 'cancelled']).toContain(r.body.run.status);
      return;
    }
    case 'advance': {
      const r = await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: action.seconds } });
      expect(r.status).toBe(200);
      return;
    }
    case 'accept': {
      if (world.quotes.length === 0) return;
      let q = world.quotes[action.quote % world.quotes.length];
      const acceptances = [...world.accepted.values()];
      // A replay repeats an earlier acceptance (when there is one).
      const replayed = action.variant === 'replay' && acceptances.length > 0 ? acceptances[action.quote % acceptances.length] : null;
      if (replayed) q = world.quotes.find((x) => x.id === replayed.quoteId)!;
      const k = action.otherKey ?? replayed?.key ?? q.key;
      const key = world.keys[k];
      let idem = `idem-${String(++world.seq).padStart(6, '0')}`;
      let hash = q.hash;
      if (action.variant === 'wrongHash') hash = (q.hash[0] === '0' ? '1' : '0') + q.hash.slice(1);
      if (replayed) idem = replayed.idem;
      if (action.variant === 'otherIdem') {
        const other = [...world.accepted.values()].find((a) => a.quoteId !== q.id && a.account === key.spec.account);
        if (other) idem = other.idem;
      }
      const now = await nowMs();
      const age = now - (q.expiresMs - LIFETIME_MS);
      // Exactly 240 s old sits on the spec's boundary ("240 seconds after creation" / "more than 240 seconds"): either answer is allowed.
      const allowed = new Set([await predict(world, q, k, hash, idem, age > LIFETIME_MS)]);
      if (age === LIFETIME_MS) allowed.add(await predict(world, q, k, hash, idem, true));
      const secrets = world.keys.filter((x) => x.spec.account === key.spec.account).map((x) => x.secret);
      const before = await observe(s, world.accounts[key.spec.account], secrets);
      const runsBefore = s.sim.deps.store.count('runs');
      const r = await accept(s, { secret: key.secret, profile: key.spec.profile }, q.id, { acceptedContractHash: hash, idempotencyKey: idem });
      const previous = world.accepted.get(`${key.spec.account}:${idem}`);
      const outcome = r.status === 202 && previous ? 'replay' : outcomeOf(r);
      expect(allowed, `${JSON.stringify(action)} → ${r.status} ${JSON.stringify(r.body)}`).toContain(outcome);
      const after = await observe(s, world.accounts[key.spec.account], secrets);
      if (outcome === '202') {
        expect(s.sim.deps.store.count('runs')).toBe(runsBefore + 1);
        const b0 = before.balances.find((b) => b.profile === q.profile)!;
        const b1 = after.balances.find((b) => b.profile === q.profile)!;
        expect(big(b1.availableAtomic)).toBe(big(b0.availableAtomic) - q.max);
        expect(big(b1.reservedAtomic)).toBe(big(b0.reservedAtomic) + q.max);
        const keyIndex = secrets.indexOf(key.secret);
        expect(big(after.spend[keyIndex])).toBe(big(before.spend[keyIndex]) + q.max);
        expect(r.body.run.status).toBe('queued');
        expect(r.body.reservation).toEqual({ id: expect.any(String), quoteId: q.id, maximumAtomic: q.max.toString() });
        world.accepted.set(`${key.spec.account}:${idem}`, { quoteId: q.id, runId: r.body.run.id, idem, account: key.spec.account, key: k, reservation: r.body.reservation });
        world.runs.push({ id: r.body.run.id, key: k });
      } else {
        // A refusal or a replay changes nothing.
        expect(s.sim.deps.store.count('runs')).toBe(runsBefore);
        expect(after).toEqual(before);
        if (outcome === 'replay') {
          expect(r.body.run.id).toBe(previous!.runId);
          expect(r.body.reservation).toEqual(previous!.reservation);
        }
      }
      return;
    }
  }
}

async function checkInvariants(world: World): Promise<void> {
  const store = s.sim.deps.store;
  for (const accountId of world.accounts) {
    const r = await s.json({ url: `/sim/accounts/${accountId}` });
    expect(r.status).toBe(200);
    for (const b of r.body.balances as Array<Record<string, string>>) {
      for (const f of FIELDS) expect(b[f], f).toMatch(AMOUNT);
      expect(big(b.depositedAtomic)).toBe(big(b.availableAtomic) + big(b.reservedAtomic) + big(b.pendingAtomic) + big(b.chargedAtomic));
      expect(big(b.depositedAtomic)).toBe(world.deposited.get(`${accountId}:${b.profile}`) ?? 0n);
      // What the runs' billings hold must be exactly the balance's reserved, pending and charged parts.
      let reserved = 0n;
      let pending = 0n;
      let charged = 0n;
      for (const run of store.all('runs').filter((x) => x.accountId === accountId && x.profile === b.profile)) {
        const billing = store.get('billings', run.id)!;
        if (billing.status === 'reserved') reserved += big(store.get('reservations', run.reservationId)!.maximumAtomic);
        else if (billing.status === 'pending') {
          const d = billing.pendingDecision!;
          pending += big(d.heldAtomic);
          charged += big(d.creatorFeeAtomic) + big(d.platformFeeAtomic) + big(d.confirmedExecutionAtomic);
        } else charged += big(billing.settlement!.chargedAtomic);
      }
      expect({ reserved: b.reservedAtomic, pending: b.pendingAtomic, charged: b.chargedAtomic }).toEqual({ reserved: reserved.toString(), pending: pending.toString(), charged: charged.toString() });
    }
  }
  for (const key of world.keys) {
    const used = big((await s.json({ url: '/v1/buyer/key', key: key.secret })).body.key.spendUsedAtomic);
    let expected = 0n;
    for (const run of store.all('runs').filter((x) => x.keyId === key.id)) {
      const billing = store.get('billings', run.id)!;
      expected += billing.status === 'settled' ? big(billing.settlement!.chargedAtomic) : big(store.get('reservations', run.reservationId)!.maximumAtomic);
    }
    expect(used).toBe(expected);
    expect(used <= key.limit).toBe(true);
  }
}

describe('ledger and spend invariants under random sequences', () => {
  it('hold after every step, and acceptances answer in the spec\'s check order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 6 }).map(BigInt), { minLength: 3, maxLength: 3 }),
        fc.array(actionArb, { minLength: 10, maxLength: 40, size: 'max' }),
        async (initialHalves, actions) => {
          const reset = await s.json({ method: 'POST', url: '/sim/reset', body: {} });
          expect(reset.status).toBe(200);
          const world = await provisionWorld(initialHalves);
          // One quote per key to start with, so acceptances have something to work on.
          for (let k = 0; k < KEYS.length; k++) await step(world, { kind: 'quote', key: k, chain: 'base', suffix: 'abab' });
          await checkInvariants(world);
          for (const action of actions) {
            await step(world, action);
            await checkInvariants(world);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
