import { iso, type Deps, type StoreTx } from '../context.ts';
import { reconcileHold, settleReservation } from '../ledger/index.ts';
import { add, big, min, mul, str, sub, type Atomic } from '../money.ts';
import { platformShare } from '../catalog/index.ts';
import type { BillingRecord, RunRecord, Settlement } from './records.ts';
import type { QuoteRecord } from '../quotes/records.ts';
import { isCanonical } from '../chains/index.ts';

/**
 * Settlement at the end of every run (spec 3.3, 3.4). Of the reservation:
 * the charge is posted, the part for reads without a confirmed receipt is held
 * pending, and the rest returns to available. The charge never exceeds the
 * quote maximum. Fee split: creatorFeeAtomic is the creator's credit and
 * platformFeeAtomic the platform's 10%, so chargedAtomic = creatorFee +
 * platformFee + executionCharge.
 */
export const CANONICAL_FACTS = ['name', 'symbol', 'decimals', 'totalSupply', 'bytecode'];

export const PENDING_REASON =
  'An authorized blockchain read has no confirmed receipt; the part of the reservation that covers it stays held pending trusted reconciliation.';

type Ending = RunRecord['status'] & ('succeeded' | 'partial' | 'failed' | 'cancelled');

/** Whether a canonical_metadata run observed the five facts at one pinned block still canonical now. */
export function canonicalFactsHold(deps: Deps, tx: StoreTx, run: RunRecord): boolean {
  if (!run.pinned) return false;
  if (run.plan.coverageGaps.some((gap) => CANONICAL_FACTS.includes(gap))) return false;
  return isCanonical(deps, tx, run.pinned.chain, BigInt(run.pinned.blockNumber), run.pinned.blockHash);
}

/** What the outcome allows to be charged: the creator fee, and execution used. */
function chargeable(deps: Deps, tx: StoreTx, run: RunRecord, ending: Ending): { fee: boolean; execution: boolean } {
  if (ending === 'cancelled') return { fee: false, execution: true };
  if (run.plan.failure) return { fee: false, execution: false };
  if (run.resultPolicy === 'canonical_metadata') {
    const ok = (ending === 'succeeded' || ending === 'partial') && canonicalFactsHold(deps, tx, run);
    return { fee: ok, execution: ok };
  }
  const ok = ending === 'succeeded';
  return { fee: ok, execution: ok };
}

export function settleRun(deps: Deps, tx: StoreTx, run: RunRecord, ending: Ending): BillingRecord {
  const quote = tx.get('quotes', run.quoteId) as QuoteRecord;
  const billing = tx.get('billings', run.id) as BillingRecord;
  const view = quote.view as { grossCreatorFeeAtomic: Atomic; maxExecutionChargeAtomic: Atomic; unitCosts: { rpcCallAtomic: Atomic }; modelExecution: { costCapAtomic: Atomic } | null };
  const allowed = chargeable(deps, tx, run, ending);
  const rate = view.unitCosts.rpcCallAtomic;
  const cap = view.maxExecutionChargeAtomic;
  const confirmedExecution = allowed.execution ? min(add(mul(rate, run.confirmedReads), run.modelCostUsedAtomic), cap) : '0';
  const held = allowed.execution ? min(mul(rate, run.unconfirmedReads), sub(cap, confirmedExecution)) : '0';
  const gross = allowed.fee ? view.grossCreatorFeeAtomic : '0';
  const platformFee = platformShare(gross);
  const creatorFee = sub(gross, platformFee);
  const chargedNow = add(gross, confirmedExecution);
  const outcome: Settlement['outcome'] = ending;
  settleReservation(deps, tx, run.accountId, run.profile, quote.maximumBuyerDebitAtomic, chargedNow, held, run.id);
  const common = {
    ...billing,
    authorizedRpcCalls: run.rpcUsed,
    reconciledRpcCalls: run.confirmedReads,
    unresolvedRpcCalls: run.unconfirmedReads,
    modelCost: view.modelExecution ? { usedAtomic: run.modelCostUsedAtomic, capAtomic: view.modelExecution.costCapAtomic } : null,
  };
  let next: BillingRecord;
  if (held !== '0') {
    next = {
      ...common,
      status: 'pending',
      pendingReason: PENDING_REASON,
      pendingDecision: { outcome, creatorFeeAtomic: creatorFee, platformFeeAtomic: platformFee, confirmedExecutionAtomic: confirmedExecution, heldAtomic: held },
    };
  } else {
    next = {
      ...common,
      status: 'settled',
      settlement: { outcome, chargedAtomic: chargedNow, creatorFeeAtomic: creatorFee, platformFeeAtomic: platformFee, executionChargeAtomic: confirmedExecution, settledAt: iso(deps.clock.now()) },
    };
    commitKeySpend(tx, run.keyId, quote.maximumBuyerDebitAtomic, chargedNow);
  }
  tx.put('billings', next);
  return next;
}

/** POST /sim/runs/{id}/reconcile: the held reads are confirmed (charged) or not (returned). */
export function reconcileBilling(deps: Deps, tx: StoreTx, billing: BillingRecord, confirmed: boolean): BillingRecord {
  const decision = billing.pendingDecision!;
  const run = tx.get('runs', billing.runId) as RunRecord;
  const quote = tx.get('quotes', billing.quoteId) as QuoteRecord;
  const charge = confirmed ? decision.heldAtomic : '0';
  reconcileHold(deps, tx, billing.accountId, billing.profile, decision.heldAtomic, charge, run.id);
  const execution = add(decision.confirmedExecutionAtomic, charge);
  const chargedAtomic = add(decision.creatorFeeAtomic, decision.platformFeeAtomic, execution);
  const next: BillingRecord = {
    ...billing,
    status: 'settled',
    pendingReason: null,
    pendingDecision: null,
    reconciledRpcCalls: billing.authorizedRpcCalls,
    unresolvedRpcCalls: 0,
    settlement: {
      outcome: decision.outcome,
      chargedAtomic,
      creatorFeeAtomic: decision.creatorFeeAtomic,
      platformFeeAtomic: decision.platformFeeAtomic,
      executionChargeAtomic: execution,
      settledAt: iso(deps.clock.now()),
    },
  };
  commitKeySpend(tx, run.keyId, quote.maximumBuyerDebitAtomic, chargedAtomic);
  tx.put('billings', next);
  return next;
}

/** Spec 5: a settled acceptance counts as the amount charged instead of the quote maximum. */
function commitKeySpend(tx: StoreTx, keyId: string, maximum: Atomic, charged: Atomic): void {
  const key = tx.get('keys', keyId)!;
  tx.put('keys', { ...key, spendCommittedAtomic: str(big(key.spendCommittedAtomic) - big(maximum) + big(charged)) });
}
