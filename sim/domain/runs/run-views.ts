import { ASSETS, type Rail } from '../catalog/index.ts';
import { canonicalJson } from '../canonical-json.ts';
import { transact, type Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { currentFaults } from './faults.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { BillingRecord, RunRecord } from './records.ts';
import { eventId } from './run-events.ts';

/** Run, billing, receipt and export reads (spec 2.8, 2.11, 2.12, 4.6–4.9) and who may see them. */
export const MAX_EVENTS = 250;

/**
 * Spec 5: a key sees only paid runs of its own account in its own asset; other
 * runs (other accounts, creator test runs, other assets) are 404, and runs of
 * listings outside the key's allowed list are 403.
 */
export function visibleRun(deps: Deps, key: ApiKeyRecord, runId: string): RunRecord {
  const run = deps.store.get('runs', runId);
  if (!run || run.accountId !== key.accountId || run.profile !== key.profile) throw errors.runNotFound();
  if (deps.store.get('listings', run.listingId)?.isCreatorTest) throw errors.runNotFound();
  if (key.listingIds && !key.listingIds.includes(run.listingId)) throw errors.listingNotAllowed();
  return run;
}

export function runView(run: RunRecord) {
  return {
    id: run.id,
    status: run.status,
    versionId: run.versionId,
    listingId: run.listingId,
    quoteId: run.quoteId,
    input: run.input,
    output: run.output,
    error: run.error,
    mode: run.mode,
    attempt: run.attempt,
    rpcUsed: run.rpcUsed,
    deadlineAt: run.deadlineAt,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** The latest events, oldest first, found by key rather than by scanning every run's events. */
export function eventsOf(deps: Deps, run: RunRecord, limit = MAX_EVENTS) {
  const out = [];
  for (let seq = Math.max(1, run.eventCount - limit + 1); seq <= run.eventCount; seq += 1) {
    const e = deps.store.get('runEvents', eventId(run.id, seq));
    if (e) out.push({ id: e.eventId, step: e.step, message: e.message, createdAt: e.createdAt });
  }
  return out;
}

export function billingView(billing: BillingRecord) {
  return {
    runId: billing.runId,
    quoteId: billing.quoteId,
    reservationId: billing.reservationId,
    status: billing.status,
    settlement: billing.settlement,
    pendingReason: billing.pendingReason,
    heldAtomic: billing.pendingDecision?.heldAtomic ?? '0',
    authorizedRpcCalls: billing.authorizedRpcCalls,
    reconciledRpcCalls: billing.reconciledRpcCalls,
    unresolvedRpcCalls: billing.unresolvedRpcCalls,
    modelCost: billing.modelCost,
    notice: billing.notice,
  };
}

export function billingFor(deps: Deps, key: ApiKeyRecord, rail: Rail, runId: string) {
  if (ASSETS[key.profile].rail !== rail) throw errors.otherEnvironment();
  const run = visibleRun(deps, key, runId);
  return billingView(deps.store.get('billings', run.id)!);
}

export function receiptFor(deps: Deps, key: ApiKeyRecord, runId: string) {
  const run = visibleRun(deps, key, runId);
  const billing = deps.store.get('billings', run.id)!;
  if (billing.status !== 'settled' || !billing.settlement) throw errors.noReceipt();
  const quote = deps.store.get('quotes', run.quoteId)!;
  const asset = ASSETS[run.profile];
  return {
    receiptId: `rcpt_${run.id.replace(/-/g, '')}`,
    runId: run.id,
    quote: quote.view,
    feeSplit: {
      feeBps: (quote.view as { feeBps: number }).feeBps,
      creatorFeeAtomic: billing.settlement.creatorFeeAtomic,
      platformFeeAtomic: billing.settlement.platformFeeAtomic,
      executionChargeAtomic: billing.settlement.executionChargeAtomic,
    },
    settlement: billingView(billing).settlement,
    reservation: { id: billing.reservationId, maximumAtomic: quote.maximumBuyerDebitAtomic },
    payment: { assetId: asset.assetId, currencyLabel: asset.currencyLabel, profile: run.profile },
    issuedAt: billing.settlement.settledAt,
  };
}

/**
 * The export is a stored artifact: built once as canonical JSON, served byte
 * for byte, with its id in X-Service-Artifact-Id. POST /sim/runs/{id}/export/expire
 * makes the next read 410; the read after that stores it again.
 *
 * A read that writes, on purpose: the contract makes the GET the moment an
 * artifact is issued (and, once expired, withdrawn then issued anew), and its
 * id is drawn from the seeded generator at that moment. Issuing it anywhere
 * else (when the run ends, say) would move every later draw and change the ids
 * a recorded session replays to.
 */
/** Why a run has no export: an ended run never will, a live one may yet. */
function noReport(status: string): string {
  if (status === 'cancelled') return 'This run was cancelled, so it has no report to export.';
  if (status === 'failed') return 'This run failed, so it has no report to export.';
  return 'This run has no report to export yet.';
}

export function exportFor(deps: Deps, key: ApiKeyRecord, runId: string): { artifactId: string; body: string } {
  const run = visibleRun(deps, key, runId);
  if (!run.output) throw errors.conflict(noReport(run.status));
  if (currentFaults(deps).exportStorageUnavailable) throw errors.unavailable('Export storage is unavailable. Try again later.');
  const stored = deps.store.get('artifacts', run.id);
  if (stored && !stored.expired && stored.eventCount === run.eventCount) return { artifactId: stored.artifactId, body: stored.body };
  if (stored?.expired) {
    transact(deps, (tx) => tx.delete('artifacts', run.id));
    throw errors.exportExpired();
  }
  const version = deps.store.get('versions', run.versionId)!;
  const body = canonicalJson({ run: runView(run), version, events: eventsOf(deps, run, Number.MAX_SAFE_INTEGER) });
  return transact(deps, (tx) => {
    const artifactId = deps.random.uuid();
    tx.put('artifacts', { id: run.id, artifactId, body, expired: false, eventCount: run.eventCount });
    return { artifactId, body };
  });
}

export function expireExport(deps: Deps, runId: string): void {
  const stored = deps.store.get('artifacts', runId);
  if (!deps.store.get('runs', runId)) throw errors.runNotFound();
  if (!stored) throw errors.conflict('This run has no stored export to expire; read the export first.');
  transact(deps, (tx) => tx.put('artifacts', { ...stored, expired: true }));
}
