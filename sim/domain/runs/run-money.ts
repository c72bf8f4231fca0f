import type { Deps } from '../context.ts';
import { errors } from '../errors.ts';

/** What the account's ledger holds for one run, part by part (atomic units as integer strings). */
export interface RunMoneyView {
  status: string;
  reservedAtomic: string;
  chargedAtomic: string;
  heldAtomic: string;
}

/**
 * One run's money from the ledger itself: what was reserved for it, what was charged
 * (settlement and reconciliation entries), and what is still held (reserved until
 * the run settles, or pending until reconciled). The conduct report's lost-answer
 * account reads it, so its figures are the ledger's own.
 */
export function runMoney(deps: Deps, runId: string): RunMoneyView {
  const run = deps.store.get('runs', runId);
  const billing = deps.store.get('billings', runId);
  if (!run || !billing) throw errors.runNotFound();
  let reserved = 0n;
  let charged = 0n;
  for (const entry of deps.store.group('ledgerEntries', run.accountId)) {
    if (entry.runId !== runId) continue;
    if (entry.kind === 'reserve') reserved += BigInt(entry.amountAtomic);
    else if (entry.kind === 'charge' || entry.kind === 'reconcile') charged += BigInt(entry.amountAtomic);
  }
  const held = billing.status === 'reserved' ? reserved : billing.status === 'pending' ? BigInt(billing.pendingDecision?.heldAtomic ?? '0') : 0n;
  return { status: run.status, reservedAtomic: reserved.toString(), chargedAtomic: charged.toString(), heldAtomic: held.toString() };
}
