import type { Listing } from '../catalog/catalog-types.ts';
import { errors } from '../errors.ts';
import { gt, mulDiv, type Atomic } from '../money.ts';
import type { QuoteRecord } from '../quotes/records.ts';
import type { RunPlan, RunRecord } from './records.ts';

/**
 * How a run will end. Without a control call it follows the listing's default
 * behaviour, unless the input carries a magic suffix (docs/magic-inputs.md),
 * like a payment provider's test card numbers: the last four characters of any
 * string input value of 16 or more characters, case-insensitive.
 */
export interface MagicInput {
  suffix: string;
  effect: string;
  apply: (plan: RunPlan, listing: Listing) => RunPlan;
}

export const UNCONFIRMED_MAGIC_READS = 3;

export const MAGIC_INPUTS: MagicInput[] = [
  { suffix: 'fa11', effect: 'ends failed: a confirmed research failure; nothing charged', apply: (p) => ({ ...p, outcome: 'failed', failure: 'research', coverageGaps: [] }) },
  { suffix: 'dead', effect: 'ends failed: a confirmed platform failure; nothing charged', apply: (p) => ({ ...p, outcome: 'failed', failure: 'platform', coverageGaps: [] }) },
  { suffix: '0a0a', effect: 'ends partial; a token report still observed all five canonical facts (the gap is in the controls section)', apply: (p) => ({ ...p, outcome: 'partial', failure: null, coverageGaps: ['controls'] }) },
  { suffix: '0b0b', effect: 'ends partial with the total supply unobserved (no canonical facts set)', apply: (p) => ({ ...p, outcome: 'partial', failure: null, coverageGaps: ['totalSupply'] }) },
  {
    suffix: 'c0de',
    effect: `succeeds, but its last ${UNCONFIRMED_MAGIC_READS} blockchain reads have no confirmed receipt: billing pending`,
    apply: (p) => ({ ...p, outcome: 'succeeded', failure: null, coverageGaps: [], rpcCalls: Math.max(p.rpcCalls, UNCONFIRMED_MAGIC_READS), unconfirmedRpcCalls: UNCONFIRMED_MAGIC_READS }),
  },
  {
    suffix: '5105',
    effect: "runs past the agent's maximumDurationMs: ends failed as a platform failure at its deadline",
    apply: (p, listing) => ({ ...p, durationSeconds: Math.ceil(listing.limits.maximumDurationMs / 1000) + 60 }),
  },
  {
    suffix: 'b10b',
    effect: "writes a report one byte over the agent's maximumOutputBytes: ends failed, a report failure; nothing charged",
    apply: (p, listing) => ({ ...p, outcome: 'succeeded', failure: null, coverageGaps: [], outputBytes: listing.limits.maximumOutputBytes + 1 }),
  },
];

function stringValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringValues);
  return [];
}

export function magicOf(input: unknown): MagicInput | null {
  for (const text of stringValues(input)) {
    if (text.length < 16) continue;
    const tail = text.slice(-4).toLowerCase();
    const magic = MAGIC_INPUTS.find((m) => m.suffix === tail);
    if (magic) return magic;
  }
  return null;
}

function modelCap(quote: QuoteRecord): Atomic {
  return (quote.view.modelExecution as { costCapAtomic: Atomic } | null)?.costCapAtomic ?? '0';
}

export function planRun(listing: Listing, quote: QuoteRecord): RunPlan {
  const b = listing.behaviour;
  const plan: RunPlan = {
    outcome: b.outcome,
    rpcCalls: Math.min(b.rpcCalls, listing.limits.maximumRpcCalls),
    unconfirmedRpcCalls: 0,
    modelCostAtomic: mulDiv(modelCap(quote), b.modelCostAtomicFraction.numerator, b.modelCostAtomicFraction.denominator),
    durationSeconds: b.durationSeconds,
    failure: null,
    coverageGaps: b.outcome === 'partial' ? ['controls'] : [],
    source: 'listing-default',
  };
  const magic = magicOf(quote.input);
  return magic ? { ...magic.apply(plan, listing), source: 'magic-input' } : plan;
}

export interface ScriptBody {
  outcome: RunPlan['outcome'];
  rpcCalls?: number;
  unconfirmedRpcCalls?: number;
  modelCostAtomic?: Atomic;
  durationSeconds?: number;
  failure?: 'platform' | 'research';
  /** understudy extension: the sections a partial report misses (default ['controls']). */
  coverageGaps?: string[];
  /** understudy extension: the size the report is written at (RunPlan.outputBytes). */
  outputBytes?: number;
}

/** POST /sim/runs/{id}/script: the new plan, checked against the agent's limits and what already happened. */
export function scriptedPlan(run: RunRecord, listing: Listing, quote: QuoteRecord, body: ScriptBody): RunPlan {
  const rpcCalls = body.rpcCalls ?? run.plan.rpcCalls;
  const unconfirmed = body.unconfirmedRpcCalls ?? 0;
  const modelCostAtomic = body.modelCostAtomic ?? run.plan.modelCostAtomic;
  if (rpcCalls > listing.limits.maximumRpcCalls) throw errors.invalidInput(`rpcCalls: at most ${listing.limits.maximumRpcCalls} (the agent's maximumRpcCalls).`);
  if (rpcCalls < run.rpcUsed) throw errors.invalidInput(`rpcCalls: the run already made ${run.rpcUsed} reads.`);
  if (unconfirmed > rpcCalls) throw errors.invalidInput('unconfirmedRpcCalls: cannot exceed rpcCalls.');
  if (gt(modelCostAtomic, modelCap(quote))) throw errors.invalidInput(`modelCostAtomic: at most ${modelCap(quote)} (the quote's model cost cap).`);
  if (body.failure && body.outcome !== 'failed') throw errors.invalidInput("failure: only a 'failed' outcome has a failure kind.");
  return {
    outcome: body.outcome,
    rpcCalls,
    unconfirmedRpcCalls: unconfirmed,
    modelCostAtomic,
    durationSeconds: body.durationSeconds ?? run.plan.durationSeconds,
    failure: body.failure ?? null,
    coverageGaps: body.outcome === 'partial' ? (body.coverageGaps ?? ['controls']) : [],
    ...(body.outputBytes === undefined ? {} : { outputBytes: body.outputBytes }),
    source: 'script',
  };
}
