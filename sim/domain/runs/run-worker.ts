import { iso, transact, type Deps, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import { currentFaults } from './faults.ts';
import { schedule, unschedule } from '../jobs/index.ts';
import { headOf, hashOf } from '../chains/index.ts';
import type { Listing } from '../catalog/catalog-types.ts';
import type { RunRecord, RunStatus } from './records.ts';
import { addEvent } from './run-events.ts';
import { reportBytes, writeReport } from './reports.ts';
import { chainOfInput } from './run-input.ts';
import { scriptedPlan, type ScriptBody } from './run-plan.ts';
import { settleRun, reconcileBilling } from './settlement.ts';

/**
 * The deterministic worker. A run is picked up QUEUE_DELAY_MS after acceptance,
 * then moves through its steps at fractions of its planned duration:
 *   0 start (running; evidence block pinned) → 1 first half of the reads →
 *   2 the rest of the reads → 3 AI analysis → 4 report, ending, settlement.
 * A run whose next step falls after its deadline ends failed at the deadline.
 */
export const QUEUE_DELAY_MS = 1_000;
const STEPS = 4;

export const TERMINAL: RunStatus[] = ['succeeded', 'partial', 'failed', 'cancelled'];
export const isTerminal = (status: RunStatus) => TERMINAL.includes(status);

function stepTime(run: RunRecord, step: number): number {
  return Date.parse(run.startedAt!) + Math.floor((run.plan.durationSeconds * 1000 * step) / STEPS);
}

/** Reads made once `total` of the plan's reads are done: the last ones are the unconfirmed. */
function withReads(run: RunRecord, total: number): RunRecord {
  const confirmedLimit = run.plan.rpcCalls - run.plan.unconfirmedRpcCalls;
  return { ...run, rpcUsed: total, confirmedReads: Math.min(total, confirmedLimit), unconfirmedReads: Math.max(0, total - confirmedLimit) };
}

function finishActive(tx: StoreTx, run: RunRecord): void {
  const account = tx.get('accounts', run.accountId)!;
  tx.put('accounts', { ...account, activeRunIds: account.activeRunIds.filter((id) => id !== run.id) });
}

/** Ends a run: status, error, settlement, and frees its place in the account's active runs. */
function endRun(deps: Deps, tx: StoreTx, run: RunRecord, status: 'succeeded' | 'partial' | 'failed' | 'cancelled', message: string): RunRecord {
  const at = iso(deps.clock.now());
  let ended: RunRecord = { ...run, status, endedAt: at, updatedAt: at };
  ended = addEvent(deps, tx, ended, status === 'failed' && run.error && (run.error as { reason?: string }).reason === 'deadline-exceeded' ? 'deadline-exceeded' : status, message);
  const billing = settleRun(deps, tx, ended, status);
  ended = addEvent(
    deps,
    tx,
    ended,
    billing.status === 'pending' ? 'billing-pending' : 'settled',
    billing.status === 'pending' ? `Billing pending: ${billing.unresolvedRpcCalls} reads await a confirmed receipt.` : `Settled: charged ${billing.settlement!.chargedAtomic}.`,
  );
  finishActive(tx, ended);
  unschedule(tx, 'run.step', run.id);
  tx.put('runs', ended);
  return ended;
}

function performStep(deps: Deps, tx: StoreTx, run: RunRecord, listing: Listing): void {
  const now = deps.clock.now();
  if (run.status === 'queued') {
    if (currentFaults(deps).researchProviderUnavailable) {
      const failed = { ...run, plan: { ...run.plan, outcome: 'failed' as const, failure: 'platform' as const }, error: { kind: 'platform', reason: 'research-provider-unavailable', message: 'The research provider was unavailable when the run started.' } };
      endRun(deps, tx, failed, 'failed', 'Failed: the research provider is unavailable (a confirmed platform failure; nothing is charged).');
      return;
    }
    const chain = chainOfInput(listing, run.input);
    const head = headOf(deps, tx, chain);
    let started: RunRecord = {
      ...run,
      status: 'running',
      startedAt: iso(now),
      updatedAt: iso(now),
      deadlineAt: iso(now + listing.limits.maximumDurationMs),
      pinned: { chain, blockNumber: head.toString(), blockHash: hashOf(tx, chain, head) },
    };
    started = addEvent(deps, tx, started, 'started', `Worker started attempt ${run.attempt}; evidence pinned at ${chain} block ${head}.`);
    return advance(deps, tx, started);
  }
  const step = run.stepIndex + 1;
  if (now >= Date.parse(run.deadlineAt!) && stepTime(run, step) > Date.parse(run.deadlineAt!)) {
    const overrun = { ...run, plan: { ...run.plan, outcome: 'failed' as const, failure: 'platform' as const }, error: { kind: 'platform', reason: 'deadline-exceeded', message: `The run exceeded the agent's maximumDurationMs (${listing.limits.maximumDurationMs} ms).` } };
    endRun(deps, tx, overrun, 'failed', 'Failed: the run passed its deadline (a platform failure; nothing is charged).');
    return;
  }
  let next: RunRecord = { ...run, stepIndex: step, updatedAt: iso(now) };
  if (step === 1 || step === 2) {
    const total = step === 1 ? Math.floor(run.plan.rpcCalls / 2) : run.plan.rpcCalls;
    next = withReads(next, total);
    next = addEvent(deps, tx, next, 'chain-reads', `${total} of ${run.plan.rpcCalls} blockchain reads done (${next.unconfirmedReads} without a confirmed receipt).`);
  } else if (step === 3) {
    next = { ...next, modelCostUsedAtomic: run.plan.modelCostAtomic };
    next = addEvent(deps, tx, next, 'analysis', run.plan.modelCostAtomic === '0' ? 'No AI analysis needed.' : `AI analysis used ${run.plan.modelCostAtomic} of the model cost cap.`);
  } else {
    return finishRun(deps, tx, next, listing);
  }
  advance(deps, tx, next);
}

function finishRun(deps: Deps, tx: StoreTx, run: RunRecord, listing: Listing): void {
  const plan = run.plan;
  if (plan.outcome === 'failed') {
    const error = { kind: plan.failure ?? 'report', message: plan.failure === 'research' ? 'The research failed: the agent could not complete its analysis.' : plan.failure === 'platform' ? 'A platform failure stopped the run.' : 'The report failed its result contract.' };
    endRun(deps, tx, { ...run, error }, 'failed', `Failed (${error.kind}): ${error.message}`);
    return;
  }
  const output = writeReport(run, listing);
  // Spec 3.3, 3.4: only a complete report is charged, and a report cut to the agent's
  // maximumOutputBytes is not complete; one over it is a failed report (nothing charged, under either policy).
  const bytes = reportBytes(output);
  if (bytes > listing.limits.maximumOutputBytes) {
    const error = { kind: 'report', reason: 'output-limit-exceeded', message: `The report (${bytes} bytes) exceeded the agent's maximumOutputBytes (${listing.limits.maximumOutputBytes}); it was not delivered.` };
    endRun(deps, tx, { ...run, error }, 'failed', `Failed (report): ${error.message}`);
    return;
  }
  const done = addEvent(deps, tx, { ...run, output }, 'report', plan.outcome === 'partial' ? `Report written with coverage gaps: ${plan.coverageGaps.join(', ')}.` : 'Report written.');
  endRun(deps, tx, done, plan.outcome, plan.outcome === 'partial' ? 'Finished with a partial report.' : 'Finished with a complete report.');
}

function advance(deps: Deps, tx: StoreTx, run: RunRecord): void {
  const due = Math.min(stepTime(run, run.stepIndex + 1), Date.parse(run.deadlineAt!));
  tx.put('runs', run);
  schedule(tx, 'run.step', run.id, Math.max(due, deps.clock.now()));
}

/** The 'run.step' job, inside the job's own transaction (sim/domain/jobs/scheduler.ts). */
export function runStepJob(deps: Deps, tx: StoreTx, runId: string): void {
  const run = tx.get('runs', runId);
  if (!run || isTerminal(run.status)) return;
  performStep(deps, tx, run, tx.get('listings', run.listingId)!);
}

/** Spec 3.2: queued or running → cancelled, charging only execution already incurred; an ended run is returned as is. */
export function cancelRun(deps: Deps, run: RunRecord): RunRecord {
  if (isTerminal(run.status)) return run;
  return transact(deps, (tx) => endRun(deps, tx, addEvent(deps, tx, { ...run }, 'cancel-requested', 'Cancelled by the buyer.'), 'cancelled', 'Cancelled: only execution already incurred is charged.'));
}

export function scriptRun(deps: Deps, runId: string, body: ScriptBody): RunRecord {
  return transact(deps, (tx) => {
    const run = tx.get('runs', runId);
    if (!run) throw errors.runNotFound();
    if (isTerminal(run.status)) throw errors.conflict('This run has already ended; its ending can no longer be scripted.');
    const plan = scriptedPlan(run, tx.get('listings', run.listingId)!, tx.get('quotes', run.quoteId)!, body);
    let next: RunRecord = addEvent(deps, tx, { ...run, plan }, 'scripted', `Ending scripted: ${plan.outcome}, ${plan.rpcCalls} reads (${plan.unconfirmedRpcCalls} unconfirmed), ${plan.durationSeconds} s.`);
    if (next.status === 'running') {
      // Reads already made stay; the rest follow the new plan from here. A phase
      // already behind the run takes the scripted figures at once: once all reads
      // are done (step 2) the remaining reads are made now, and once the analysis
      // ran (step 3) its cost becomes the scripted one; otherwise no later step
      // would apply them and the run would end with the old figures.
      next = withReads(next, next.stepIndex >= 2 ? plan.rpcCalls : next.rpcUsed);
      if (next.stepIndex >= 3) next = { ...next, modelCostUsedAtomic: plan.modelCostAtomic };
      advance(deps, tx, next);
    } else tx.put('runs', next);
    return next;
  });
}

export function reconcileRun(deps: Deps, runId: string, confirmed: boolean) {
  return transact(deps, (tx) => {
    const billing = tx.get('billings', runId);
    if (!billing) throw errors.runNotFound();
    if (billing.status !== 'pending') throw errors.conflict(`This run's billing is ${billing.status}, not pending; there is nothing to reconcile.`);
    const settled = reconcileBilling(deps, tx, billing, confirmed);
    const run = tx.get('runs', runId)!;
    tx.put('runs', addEvent(deps, tx, run, 'reconciled', confirmed ? `Reconciled: the held reads were confirmed and charged.` : 'Reconciled: the held reads were not confirmed; their part returned to available.'));
    return settled;
  });
}
