import { ASSETS, assertOwnAsset, assertRail, findPublicListing, priceOf, tariffFor, versionOf, type Price, type Rail } from '../catalog/index.ts';
import type { Profile, ResultPolicy } from '../catalog/catalog-types.ts';
import { canonicalJson, sha256Hex } from '../canonical-json.ts';
import { iso, transact, type Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { schedule } from '../jobs/index.ts';
import { RAIL_NOTICE } from './notices.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { QuoteRecord } from './records.ts';
import { bindInput } from '../runs/index.ts';

/** Quotes (spec 2.7, 3.1, 4.3): server-priced, bound terms, a hash anyone can recompute. */
export const QUOTE_LIFETIME_MS = 240_000;

export interface CreateQuoteBody {
  listingId: string;
  input: unknown;
  resultPolicy?: ResultPolicy;
  assetId?: string;
}

/**
 * The terms a contract hash binds. contractHash = SHA-256 (hex) of the
 * canonical JSON (sorted keys, no whitespace) of exactly this object, built
 * from the quote response: see docs/contract-hash.md.
 */
export function contractTerms(quote: {
  id: string;
  listingId: string;
  versionId: string;
  input: unknown;
  resultPolicy: string;
  priceRevision: number;
  assetId: string;
  asset: { namespace: string; cluster: string; kind: string; decimals: number };
  maximumBuyerDebitAtomic: string;
  grossCreatorFeeAtomic: string;
  platformFeeAtomic: string;
  creatorCreditAtomic: string;
  maxExecutionChargeAtomic: string;
  feeBps: number;
  expiresAt: string;
}) {
  return {
    quoteId: quote.id,
    listingId: quote.listingId,
    versionId: quote.versionId,
    input: quote.input,
    resultPolicy: quote.resultPolicy,
    priceRevision: quote.priceRevision,
    asset: { assetId: quote.assetId, ...quote.asset },
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

export const contractHashOf = (quote: Parameters<typeof contractTerms>[0]) => sha256Hex(canonicalJson(contractTerms(quote)));

/** Spec 4.3: the payer's profile, with SOL the default on the Solana route for listings accepting both. */
function payingProfile(key: ApiKeyRecord, rail: Rail, accepted: Profile[], assetId: string | undefined): Profile {
  if (rail !== 'solana-custody') return key.profile;
  if (assetId !== undefined) {
    assertOwnAsset(key, assetId);
    return key.profile;
  }
  const both = accepted.includes('solana_sol') && accepted.includes('solana_usdc');
  const chosen: Profile = both ? 'solana_sol' : key.profile;
  if (chosen !== key.profile) throw errors.otherEnvironment();
  return chosen;
}

export function createQuote(deps: Deps, key: ApiKeyRecord, rail: Rail, body: CreateQuoteBody): QuoteRecord {
  assertRail(key, rail);
  const listing = findPublicListing(deps, body.listingId);
  if (key.listingIds && !key.listingIds.includes(listing.id)) throw errors.listingNotAllowed();
  // Spec 4.3: "a listing accepting both" means both offers are enabled.
  const enabled = listing.profiles.filter((p) => !listing.disabledProfiles.includes(p));
  const profile = payingProfile(key, rail, enabled, body.assetId);
  const version = versionOf(deps, listing);
  const tariff = tariffFor(version, profile);
  if (!listing.profiles.includes(profile) || !tariff || listing.disabledProfiles.includes(profile)) {
    throw errors.forbidden(`This agent listing does not accept ${ASSETS[profile].currencyLabel}, the payment currency of this API key.`);
  }
  const resultPolicy = body.resultPolicy ?? 'complete_only';
  if (!listing.resultPolicies.includes(resultPolicy)) {
    throw errors.invalidInput(`resultPolicy: ${resultPolicy} is not available for this agent (available: ${listing.resultPolicies.join(', ')}).`);
  }
  const input = bindInput(listing, body.input);
  return transact(deps, (tx) => {
    const now = deps.clock.now();
    const id = deps.random.uuid();
    const price: Price = priceOf(version, tariff);
    const asset = ASSETS[profile];
    const base = {
      id,
      listingId: listing.id,
      versionId: version.id,
      input,
      resultPolicy,
      priceRevision: version.priceRevision,
      assetId: asset.assetId,
      asset: asset.asset,
      maximumBuyerDebitAtomic: price.maximumBuyerDebitAtomic,
      grossCreatorFeeAtomic: price.grossCreatorFeeAtomic,
      platformFeeAtomic: price.platformFeeAtomic,
      creatorCreditAtomic: price.creatorCreditAtomic,
      maxExecutionChargeAtomic: price.maxExecutionChargeAtomic,
      feeBps: price.feeBps,
      expiresAt: iso(now + QUOTE_LIFETIME_MS),
    };
    const view = {
      ...base,
      contractHash: contractHashOf(base),
      currencyLabel: asset.currencyLabel,
      unitCosts: price.unitCosts,
      resultContract: version.resultContracts.find((c) => c.policy === resultPolicy)?.contract ?? null,
      modelExecution: price.modelExecution,
      agentKind: listing.agentKind,
      priceStructure: listing.priceStructure,
      notice: RAIL_NOTICE[asset.rail],
      createdAt: iso(now),
    };
    const quote: QuoteRecord = {
      id,
      accountId: key.accountId,
      keyId: key.id,
      listingId: listing.id,
      versionId: version.id,
      profile,
      input,
      resultPolicy,
      priceRevision: version.priceRevision,
      contractHash: view.contractHash,
      createdAt: view.createdAt,
      expiresAt: base.expiresAt,
      view,
      maximumBuyerDebitAtomic: price.maximumBuyerDebitAtomic,
      acceptedBy: null,
    };
    tx.put('quotes', quote);
    schedule(tx, 'quote.expire', id, now + QUOTE_LIFETIME_MS);
    return quote;
  });
}

/** Spec 7: quote_expired is "more than 240 seconds since creation"; at exactly 240 s the quote still stands. */
export const isExpired = (quote: QuoteRecord, nowMs: number) => nowMs > Date.parse(quote.expiresAt);
