import type { Listing, ListingVersion, Profile, Tariff } from './catalog-types.ts';
import { add, mul, mulDiv, sub, type Atomic } from '../money.ts';

/**
 * Pricing of one run (or, for per_monitoring_window listings, one window) from
 * a listing version's tariff in the payer's profile:
 *   grossCreatorFee    = tariff.creatorFeeAtomic
 *   platformFee        = floor(grossCreatorFee × feeBps / 10000), feeBps = 1000
 *   creatorCredit      = grossCreatorFee − platformFee (the creator receives the rounding)
 *   rpcCap             = tariff.rpcCallAtomic × limits.maximumRpcCalls
 *   modelCap           = tariff.model.costCapAtomic, or 0 without AI analysis
 *   maxExecutionCharge = rpcCap + modelCap
 *   maximumBuyerDebit  = grossCreatorFee + maxExecutionCharge: the most a run can ever cost.
 * All integer arithmetic (BigInt); every division rounds down.
 */
export const FEE_BPS = 1000;

export interface Price {
  grossCreatorFeeAtomic: Atomic;
  platformFeeAtomic: Atomic;
  creatorCreditAtomic: Atomic;
  feeBps: number;
  maxExecutionChargeAtomic: Atomic;
  maximumBuyerDebitAtomic: Atomic;
  unitCosts: {
    rpcCallAtomic: Atomic;
    maximumRpcCalls: number;
    rpcCapAtomic: Atomic;
    modelCostCapAtomic: Atomic;
    modelRateAtomic: Atomic | null;
  };
  modelExecution: { costCapAtomic: Atomic; rateAtomic: Atomic } | null;
}

export function tariffFor(version: ListingVersion, profile: Profile): Tariff | undefined {
  return version.tariffs.find((t) => t.profile === profile);
}

/** The platform's share of a creator fee. */
export const platformShare = (creatorFeeAtomic: Atomic): Atomic => mulDiv(creatorFeeAtomic, FEE_BPS, 10_000);

export function priceOf(version: ListingVersion, tariff: Tariff): Price {
  const gross = tariff.creatorFeeAtomic;
  const platformFee = platformShare(gross);
  const maximumRpcCalls = version.manifest.limits.maximumRpcCalls;
  const rpcCap = mul(tariff.rpcCallAtomic, maximumRpcCalls);
  const modelCap = tariff.model?.costCapAtomic ?? '0';
  const maxExecution = add(rpcCap, modelCap);
  return {
    grossCreatorFeeAtomic: gross,
    platformFeeAtomic: platformFee,
    creatorCreditAtomic: sub(gross, platformFee),
    feeBps: FEE_BPS,
    maxExecutionChargeAtomic: maxExecution,
    maximumBuyerDebitAtomic: add(gross, maxExecution),
    unitCosts: {
      rpcCallAtomic: tariff.rpcCallAtomic,
      maximumRpcCalls,
      rpcCapAtomic: rpcCap,
      modelCostCapAtomic: modelCap,
      modelRateAtomic: tariff.model?.rateAtomic ?? null,
    },
    modelExecution: tariff.model ? { costCapAtomic: tariff.model.costCapAtomic, rateAtomic: tariff.model.rateAtomic } : null,
  };
}

/**
 * Reference prices for the catalog's `price` sort across assets, in micro-USD per
 * whole unit. Spec 4.1 does not say how listings priced in different assets
 * compare; the simulator converts at these fixed rates.
 */
const MICRO_USD_PER_UNIT: Record<Profile, bigint> = {
  solana_sol: 150_000_000n,
  solana_usdc: 1_000_000n,
  sim: 1_000_000n,
  local_custody: 3_000_000_000n,
};
const DECIMALS: Record<Profile, bigint> = { solana_sol: 9n, solana_usdc: 6n, sim: 6n, local_custody: 18n };

/** A listing's cheapest maximum debit in micro-USD (for sorting), over the given profiles. */
export function referencePrice(listing: Listing, version: ListingVersion, profiles: Profile[]): bigint {
  let best: bigint | null = null;
  for (const profile of profiles) {
    const tariff = tariffFor(version, profile);
    if (!tariff) continue;
    const debit = BigInt(priceOf(version, tariff).maximumBuyerDebitAtomic);
    const microUsd = (debit * MICRO_USD_PER_UNIT[profile]) / 10n ** DECIMALS[profile];
    if (best === null || microUsd < best) best = microUsd;
  }
  return best ?? 0n;
}
