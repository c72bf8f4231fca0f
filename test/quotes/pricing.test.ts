import { describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import type { Listing, ListingVersion, Tariff } from '../../sim/domain/catalog/index.ts';
import { transact } from '../../sim/domain/context.ts';
import { assertBalanceInvariant, deposit as ledgerDeposit, readBalance, reserve, settleReservation } from '../../sim/domain/ledger/index.ts';
import { priceOf } from '../../sim/domain/catalog/index.ts';
import {
  acceptOk, advance, ASSET_ID, balanceOf, balances, big, clockNow, createAccount, deposit, provision, quoteOk, RAIL, spendUsed, tokenInput,
  type Buyer, type Profile, sharedBuyers } from './support.ts';

/** Spec 2.7 and the pricing rules of docs/pricing.md, re-derived with BigInt from the rail catalogs' tariffs and manifests. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AMOUNT = /^(0|[1-9][0-9]*)$/;
const HEX64 = /^[a-f0-9]{64}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const LABEL: Record<Profile, string> = { solana_sol: 'SOL', solana_usdc: 'USDC', local_custody: 'ETH on the chainx chain', sim: 'SIM (rehearsal credit)' };
const DECIMALS: Record<Profile, number> = { solana_sol: 9, solana_usdc: 6, local_custody: 18, sim: 6 };

/** Every field spec 2.7 names, plus the ids the contract hash binds. */
const QUOTE_FIELDS = [
  'id', 'contractHash', 'maximumBuyerDebitAtomic', 'expiresAt',
  'asset', 'currencyLabel', 'grossCreatorFeeAtomic', 'platformFeeAtomic', 'creatorCreditAtomic', 'feeBps',
  'maxExecutionChargeAtomic', 'unitCosts', 'resultPolicy', 'resultContract', 'modelExecution',
  'input', 'agentKind', 'priceRevision', 'notice', 'listingId', 'versionId',
];

/** The expected amounts, from a tariff and the manifest limits alone. */
function derive(tariff: { creatorFeeAtomic: string; rpcCallAtomic: string; model: { costCapAtomic: string } | null }, maximumRpcCalls: number) {
  const gross = BigInt(tariff.creatorFeeAtomic);
  const platformFee = (gross * 1000n) / 10000n;
  const creatorCredit = gross - platformFee;
  const modelCap = tariff.model ? BigInt(tariff.model.costCapAtomic) : 0n;
  const maxExecution = BigInt(tariff.rpcCallAtomic) * BigInt(maximumRpcCalls) + modelCap;
  return {
    grossCreatorFeeAtomic: gross.toString(),
    platformFeeAtomic: platformFee.toString(),
    creatorCreditAtomic: creatorCredit.toString(),
    maxExecutionChargeAtomic: maxExecution.toString(),
    maximumBuyerDebitAtomic: (gross + maxExecution).toString(),
  };
}

/** A value that satisfies an input field, from its enum or pattern. */
const BY_PATTERN: Record<string, string> = {
  '^0x[a-fA-F0-9]{40}$': '0x' + 'ab'.repeat(20),
  '^0x[a-fA-F0-9]{64}$': '0x' + 'cd'.repeat(32),
  '^[1-9A-HJ-NP-Za-km-z]{32,44}$': 'So11111111111111111111111111111111111111112',
  '^[1-9A-HJ-NP-Za-km-z]{64,88}$': '5'.repeat(64),
  '^(0|[1-9][0-9]{0,77})$': '12345',
  '^[A-Za-z0-9+/]+={0,2}$': 'AQIDBA==',
  '^[1-9][0-9]{0,3}$': '50',
};
function valueFor(field: { name: string; enum?: string[]; pattern?: string }): string {
  if (field.enum) return field.enum[0];
  if (field.pattern) {
    const value = BY_PATTERN[field.pattern];
    if (!value) throw new Error(`no sample value for pattern ${field.pattern} (${field.name})`);
    return value;
  }
  return 'A plain question about the protocol';
}
function inputFor(manifest: { agentKind: string; chains: string[]; inputFields: Array<{ name: string; required: boolean; enum?: string[]; pattern?: string }> }) {
  const values = Object.fromEntries(manifest.inputFields.filter((f) => f.required).map((f) => [f.name, valueFor(f)]));
  if (manifest.agentKind === 'research_workflow') return { workflow: 'service.workflow.v1', chain: manifest.chains[0], values };
  return values;
}

const shared = sharedBuyers();

async function catalogOf(buyer: Buyer) {
  const url = buyer.profile.startsWith('solana') ? `${RAIL[buyer.profile]}/catalog?assetId=${encodeURIComponent(ASSET_ID[buyer.profile])}` : `${RAIL[buyer.profile]}/catalog`;
  const r = await shared.s.json({ url, key: buyer.secret });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.listings as Array<Record<string, any>>;
}

describe('quote fields and arithmetic (spec 2.7)', () => {
  for (const profile of ['solana_sol', 'solana_usdc', 'local_custody', 'sim'] as const) {
    it(`every listing of the ${profile} catalog quotes the fields of 2.7 with amounts re-derived from its tariff`, async () => {
      const buyer = shared.buyers[profile];
      const before = { balances: await balances(shared.s, buyer.accountId), spend: await spendUsed(shared.s, buyer.secret) };
      const listings = await catalogOf(buyer);
      expect(listings.length).toBeGreaterThan(5);
      let quoted = 0;
      for (const listing of listings) {
        const input = inputFor(listing.manifest);
        const solana = profile === 'solana_sol' || profile === 'solana_usdc';
        const r = await shared.s.json({
          method: 'POST',
          url: `${RAIL[profile]}/quotes`,
          key: buyer.secret,
          body: { listingId: listing.listingId, input, ...(solana ? { assetId: ASSET_ID[profile] } : {}) },
        });
        if (!listing.enabled) {
          // An offer listed but not enabled: the listing does not accept this currency now.
          expect(r.status, `${listing.name}: ${JSON.stringify(r.body)}`).toBe(403);
          continue;
        }
        expect(r.status, `${listing.name}: ${JSON.stringify(r.body)}`).toBe(201);
        expect(r.headers['cache-control']).toBe('no-store');
        const quote = r.body.quote;
        quoted += 1;
        for (const field of QUOTE_FIELDS) expect(quote, `${listing.name} lacks ${field}`).toHaveProperty(field);
        expect(quote.id).toMatch(UUID);
        expect(quote.contractHash).toMatch(HEX64);
        expect(quote.expiresAt).toMatch(ISO);
        for (const f of ['maximumBuyerDebitAtomic', 'grossCreatorFeeAtomic', 'platformFeeAtomic', 'creatorCreditAtomic', 'maxExecutionChargeAtomic']) {
          expect(quote[f], f).toMatch(AMOUNT);
        }
        expect(quote.listingId).toBe(listing.listingId);
        expect(quote.versionId).toBe(listing.versionId);
        expect(quote.priceRevision).toBe(listing.priceRevision);
        expect(quote.agentKind).toBe(listing.manifest.agentKind);
        expect(quote.currencyLabel).toBe(LABEL[profile]);
        expect(Object.keys(quote.asset).sort()).toEqual(['cluster', 'decimals', 'kind', 'namespace']);
        expect(quote.asset.decimals).toBe(DECIMALS[profile]);
        expect(`${quote.asset.namespace}:${quote.asset.cluster}/${quote.asset.kind}`).toBe(ASSET_ID[profile]);
        expect(quote.feeBps).toBe(1000);
        expect(quote.resultPolicy).toBe('complete_only');
        expect(quote.resultContract).toBe(listing.resultContracts.find((c: any) => c.policy === 'complete_only').contract);
        expect(typeof quote.notice).toBe('string');
        expect(quote.notice.length).toBeGreaterThan(0);
        expect(quote.input).toMatchObject(input);

        const tariff = listing.tariffs;
        expect(tariff.profile).toBe(profile);
        const expected = derive(tariff, listing.manifest.limits.maximumRpcCalls);
        expect({
          grossCreatorFeeAtomic: quote.grossCreatorFeeAtomic,
          platformFeeAtomic: quote.platformFeeAtomic,
          creatorCreditAtomic: quote.creatorCreditAtomic,
          maxExecutionChargeAtomic: quote.maxExecutionChargeAtomic,
          maximumBuyerDebitAtomic: quote.maximumBuyerDebitAtomic,
        }, listing.name).toEqual(expected);
        // The split adds up and the creator keeps the remainder.
        expect(big(quote.platformFeeAtomic) + big(quote.creatorCreditAtomic)).toBe(big(quote.grossCreatorFeeAtomic));
        expect(quote.unitCosts.rpcCallAtomic).toBe(tariff.rpcCallAtomic);
        expect(quote.unitCosts.maximumRpcCalls).toBe(listing.manifest.limits.maximumRpcCalls);
        if (tariff.model) {
          expect(quote.modelExecution).toEqual({ costCapAtomic: tariff.model.costCapAtomic, rateAtomic: tariff.model.rateAtomic });
        } else {
          expect(quote.modelExecution).toBeNull();
        }
      }
      expect(quoted).toBeGreaterThan(5);
      // A quote reserves nothing and spends nothing (spec 2.7, 3.1).
      expect(await balances(shared.s, buyer.accountId)).toEqual(before.balances);
      expect(await spendUsed(shared.s, buyer.secret)).toBe(before.spend);
    });
  }

  it('canonical_metadata quotes carry that policy and its result contract, at the same price', async () => {
    const buyer = shared.buyers.local_custody;
    const plain = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const canonical = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID, tokenInput(), { resultPolicy: 'canonical_metadata' });
    expect(canonical.resultPolicy).toBe('canonical_metadata');
    expect(canonical.resultContract).toMatch(/name, symbol, decimals, total supply and deployed bytecode/);
    expect(canonical.maximumBuyerDebitAtomic).toBe(plain.maximumBuyerDebitAtomic);
    expect(canonical.contractHash).not.toBe(plain.contractHash);
  });

  it('expiresAt is exactly 240 seconds after creation on the virtual clock', async () => {
    const buyer = shared.buyers.local_custody;
    await advance(shared.s, 1234.567);
    const now = await clockNow(shared.s);
    expect(now.endsWith('.567Z')).toBe(true);
    const quote = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    expect(Date.parse(quote.expiresAt) - Date.parse(now)).toBe(240_000);
    expect(quote.expiresAt).toBe(new Date(Date.parse(now) + 240_000).toISOString());
    // Two quotes a second apart expire a second apart.
    await advance(shared.s, 1);
    const later = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    expect(Date.parse(later.expiresAt) - Date.parse(quote.expiresAt)).toBe(1000);
  });

  it('many quotes of one listing leave balances and the key spend untouched', async () => {
    const buyer = shared.buyers.solana_usdc;
    const before = { balances: await balances(shared.s, buyer.accountId), spend: await spendUsed(shared.s, buyer.secret) };
    for (let i = 0; i < 12; i++) await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    expect(await balances(shared.s, buyer.accountId)).toEqual(before.balances);
    expect(await spendUsed(shared.s, buyer.secret)).toBe(before.spend);
    const key = (await shared.s.json({ url: '/v1/buyer/key', key: buyer.secret })).body.key;
    expect(key.remainingSpendAtomic).toBe(key.spendLimitAtomic);
  });
});

// ---------------------------------------------------------------------------
// Near 10^30 wei
// ---------------------------------------------------------------------------

const HUGE = 10n ** 30n + 7n; // 1000000000000000000000000000007

describe('integer arithmetic near 10^30 wei', () => {
  it('priceOf splits and caps without losing a unit', () => {
    const tariff: Tariff = { profile: 'local_custody', creatorFeeAtomic: HUGE.toString(), rpcCallAtomic: (10n ** 27n + 3n).toString(), model: { costCapAtomic: (5n * 10n ** 29n + 1n).toString(), rateAtomic: '1' } };
    const version = { manifest: { limits: { maximumRpcCalls: 999, maximumDurationMs: 1, maximumOutputBytes: 1 } }, tariffs: [tariff] } as unknown as ListingVersion;
    const price = priceOf(version, tariff);
    expect(price.grossCreatorFeeAtomic).toBe('1000000000000000000000000000007');
    expect(price.platformFeeAtomic).toBe('100000000000000000000000000000'); // floor((10^30+7)/10)
    expect(price.creatorCreditAtomic).toBe('900000000000000000000000000007'); // the creator keeps the remainder
    const rpcCap = (10n ** 27n + 3n) * 999n;
    expect(price.maxExecutionChargeAtomic).toBe((rpcCap + 5n * 10n ** 29n + 1n).toString());
    expect(price.maximumBuyerDebitAtomic).toBe((HUGE + rpcCap + 5n * 10n ** 29n + 1n).toString());
    expect(price.maximumBuyerDebitAtomic).toBe('2499000000000000000000000003005');
    // A fee whose tenth is fractional: 19 → platform 1, creator 18.
    const small = priceOf(version, { ...tariff, creatorFeeAtomic: '19', model: null, rpcCallAtomic: '0' });
    expect([small.platformFeeAtomic, small.creatorCreditAtomic, small.maximumBuyerDebitAtomic]).toEqual(['1', '18', '19']);
    const nine = priceOf(version, { ...tariff, creatorFeeAtomic: '9', model: null, rpcCallAtomic: '0' });
    expect([nine.platformFeeAtomic, nine.creatorCreditAtomic]).toEqual(['0', '9']);
  });

  it('the ledger functions reserve, charge and release exact amounts around 10^30 + 7', async () => {
    const accountId = await createAccount(shared.s, 'evm');
    const deps = shared.s.sim.deps;
    const reserved = 10n ** 30n - 1n;
    const charge = 123456789012345678901234567n;
    const held = 7n;
    transact(deps, (tx) => ledgerDeposit(deps, tx, accountId, 'local_custody', HUGE.toString()));
    transact(deps, (tx) => reserve(deps, tx, accountId, 'local_custody', reserved.toString(), '00000000-0000-4000-8000-000000000001'));
    let balance = readBalance(deps.store as never, accountId, 'local_custody');
    expect(balance.availableAtomic).toBe('8');
    expect(balance.reservedAtomic).toBe(reserved.toString());
    assertBalanceInvariant(balance);
    // Reserving more than the 8 left is refused with the ledger code, and changes nothing.
    expect(() => transact(deps, (tx) => reserve(deps, tx, accountId, 'local_custody', '9', '00000000-0000-4000-8000-000000000002'))).toThrow(/available balance/);
    expect(readBalance(deps.store as never, accountId, 'local_custody')).toEqual(balance);
    transact(deps, (tx) => settleReservation(deps, tx, accountId, 'local_custody', reserved.toString(), charge.toString(), held.toString(), '00000000-0000-4000-8000-000000000001'));
    balance = readBalance(deps.store as never, accountId, 'local_custody');
    expect(balance).toMatchObject({
      depositedAtomic: HUGE.toString(),
      availableAtomic: (HUGE - charge - held).toString(),
      reservedAtomic: '0',
      pendingAtomic: '7',
      chargedAtomic: '123456789012345678901234567',
    });
    expect(balance.availableAtomic).toBe('999876543210987654321098765433');
    assertBalanceInvariant(balance);
  });

  it('a deposit of 10^30 + 7 wei through the API: quotes, accepts and settlement stay exact', async () => {
    const buyer = await provision(shared.s, 'local_custody', { depositAtomic: HUGE, spendLimitAtomic: HUGE });
    expect(await balanceOf(shared.s, buyer.accountId, 'local_custody')).toMatchObject({ depositedAtomic: '1000000000000000000000000000007', availableAtomic: '1000000000000000000000000000007' });
    const first = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const second = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID, tokenInput('base'));
    const a = await acceptOk(shared.s, buyer, first);
    const b = await acceptOk(shared.s, buyer, second);
    const max = big(first.maximumBuyerDebitAtomic);
    expect(big(second.maximumBuyerDebitAtomic)).toBe(max);
    expect(await balanceOf(shared.s, buyer.accountId, 'local_custody')).toMatchObject({
      availableAtomic: (HUGE - 2n * max).toString(),
      reservedAtomic: (2n * max).toString(),
      chargedAtomic: '0',
    });
    expect(await spendUsed(shared.s, buyer.secret)).toBe((2n * max).toString());
    const key = (await shared.s.json({ url: '/v1/buyer/key', key: buyer.secret })).body.key;
    expect(key.remainingSpendAtomic).toBe((HUGE - 2n * max).toString());

    // Cancel the second before the worker starts (nothing incurred), script the first run to
    // succeed with 7 reads and a known model cost, then let it finish.
    expect((await shared.s.json({ method: 'POST', url: `/v1/runs/${b.run.id}/cancel`, key: buyer.secret })).status).toBe(200);
    expect(await spendUsed(shared.s, buyer.secret)).toBe(max.toString());
    // Script the first run to succeed with 7 reads and a known model cost, then let it finish.
    const modelCost = 12345n;
    const scripted = await shared.s.json({ method: 'POST', url: `/sim/runs/${a.run.id}/script`, body: { outcome: 'succeeded', rpcCalls: 7, modelCostAtomic: modelCost.toString(), durationSeconds: 10 } });
    expect(scripted.status, JSON.stringify(scripted.body)).toBe(200);
    await advance(shared.s, 30);
    const billing = await shared.s.json({ url: `/v1/custody/runs/${a.run.id}/billing`, key: buyer.secret });
    expect(billing.status).toBe(200);
    expect(billing.body.status).toBe('settled');
    const charged = big(first.grossCreatorFeeAtomic) + 7n * big(first.unitCosts.rpcCallAtomic) + modelCost;
    expect(billing.body.settlement.chargedAtomic).toBe(charged.toString());
    expect(await balanceOf(shared.s, buyer.accountId, 'local_custody')).toMatchObject({
      depositedAtomic: HUGE.toString(),
      availableAtomic: (HUGE - charged).toString(),
      reservedAtomic: '0',
      pendingAtomic: '0',
      chargedAtomic: charged.toString(),
    });
    expect(await spendUsed(shared.s, buyer.secret)).toBe(charged.toString());
  });

  it('a listing priced near 10^30 wei quotes, reserves and settles exactly', async () => {
    // A temporary listing: the token research agent with a tariff near 10^30 wei.
    const deps = shared.s.sim.deps;
    const base = deps.store.get('listings', TOKEN_RESEARCH_LISTING_ID) as Listing;
    const baseVersion = deps.store.get('versions', base.currentVersionId) as ListingVersion;
    const listingId = '7a1e0000-0000-4000-8000-00000000a030';
    const versionId = '7a1e0000-0000-4000-8000-00000000b030';
    const tariff: Tariff = { profile: 'local_custody', creatorFeeAtomic: HUGE.toString(), rpcCallAtomic: '1000000000000000000000000001', model: { costCapAtomic: '333333333333333333333333333333', rateAtomic: '3' } };
    transact(deps, (tx) => {
      tx.put('listings', { ...base, id: listingId, currentVersionId: versionId, profiles: ['local_custody'], disabledProfiles: [] });
      tx.put('versions', { ...baseVersion, id: versionId, listingId, tariffs: [tariff] });
    });
    const expected = derive(tariff, baseVersion.manifest.limits.maximumRpcCalls);
    expect(expected.platformFeeAtomic).toBe('100000000000000000000000000000');
    expect(expected.creatorCreditAtomic).toBe('900000000000000000000000000007');
    const max = big(expected.maximumBuyerDebitAtomic);
    const funds = 2n * max + 5n;
    const buyer = await provision(shared.s, 'local_custody', { depositAtomic: funds, spendLimitAtomic: 3n * max });
    const quote = await quoteOk(shared.s, buyer, listingId);
    expect(quote).toMatchObject(expected);
    const accepted = await acceptOk(shared.s, buyer, quote);
    expect(accepted.reservation.maximumAtomic).toBe(max.toString());
    expect(await balanceOf(shared.s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: (funds - max).toString(), reservedAtomic: max.toString() });
    expect(await spendUsed(shared.s, buyer.secret)).toBe(max.toString());
    // Cancel before the worker starts: nothing incurred, the whole reservation returns.
    const cancelled = await shared.s.json({ method: 'POST', url: `/v1/runs/${accepted.run.id}/cancel`, key: buyer.secret });
    expect(cancelled.status).toBe(200);
    expect(await balanceOf(shared.s, buyer.accountId, 'local_custody')).toMatchObject({ availableAtomic: funds.toString(), reservedAtomic: '0', chargedAtomic: '0' });
    expect(await spendUsed(shared.s, buyer.secret)).toBe('0');
  });
});

describe('the sim asset (rehearsal credit)', () => {
  it('is usable by Solana and EVM accounts on /v1/rehearsal with 6 decimals and its label', async () => {
    for (const type of ['solana', 'evm'] as const) {
      const accountId = await createAccount(shared.s, type);
      await deposit(shared.s, accountId, 'sim', '1000000000');
      const buyer = await provision(shared.s, 'sim', { accountId, depositAtomic: '0' });
      const key = (await shared.s.json({ url: '/v1/buyer/key', key: buyer.secret })).body.key;
      expect(key.assetId).toBe('sim:local/credit');
      const quote = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
      expect(quote.asset).toEqual({ namespace: 'sim', cluster: 'local', kind: 'credit', decimals: 6 });
      expect(quote.currencyLabel).toBe('SIM (rehearsal credit)');
      const accepted = await acceptOk(shared.s, buyer, quote);
      expect(accepted.run.mode).toBe('rehearsal');
      expect(await balanceOf(shared.s, accountId, 'sim')).toMatchObject({ assetId: 'sim:local/credit', availableAtomic: (1_000_000_000n - big(quote.maximumBuyerDebitAtomic)).toString() });
    }
  });
});
