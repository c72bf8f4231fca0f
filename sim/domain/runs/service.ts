import type { Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { platformQueue, setPlatformQueueBound } from './platform-queue.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { RunRecord } from './records.ts';
import type { ScriptBody } from './run-plan.ts';
import { billingView, eventsOf, expireExport, exportFor, receiptFor, runView, visibleRun } from './run-views.ts';
import { cancelRun, reconcileRun, scriptRun } from './run-worker.ts';
import { runMoney } from './run-money.ts';

/** Newest runs the control API lists. */
const RUN_PAGE = 200;

/** Runs (spec 4.6-4.9) and their control (contract section 2: script, reconcile, export expiry, the platform queue). */
export function createRuns(deps: Deps) {
  const controlView = (run: RunRecord) => ({ ...runView(run), profile: run.profile, accountId: run.accountId, plan: run.plan });
  return {
    /** A run the key may see (the drill notes its status), and its answer. */
    read(key: ApiKeyRecord, runId: string) {
      const run = visibleRun(deps, key, runId);
      return { run, answer: () => ({ run: runView(run), events: eventsOf(deps, run) }) };
    },
    cancel: (key: ApiKeyRecord, runId: string) => runView(cancelRun(deps, visibleRun(deps, key, runId))),
    export: (key: ApiKeyRecord, runId: string) => exportFor(deps, key, runId),
    receipt: (key: ApiKeyRecord, runId: string) => receiptFor(deps, key, runId),
    /** Newest first, reading (archived) runs only for the page. */
    list(accountId: string | undefined) {
      const ids = [...(accountId ? deps.store.groupIdsOf('runs', accountId) : deps.store.idsOf('runs'))];
      return ids.slice(-RUN_PAGE).reverse().map((id) => controlView(deps.store.get('runs', id)!));
    },
    detail(runId: string) {
      const run = deps.store.get('runs', runId);
      if (!run) throw errors.runNotFound();
      return { run: { ...controlView(run), pinned: run.pinned }, events: eventsOf(deps, run), billing: billingView(deps.store.get('billings', run.id)!) };
    },
    /** What the ledger holds for a run (the conduct report's lost-answer account). */
    money: (runId: string) => runMoney(deps, runId),
    script: (runId: string, body: ScriptBody) => runView(scriptRun(deps, runId, body)),
    reconcile: (runId: string, confirmed: boolean) => billingView(reconcileRun(deps, runId, confirmed)),
    expireExport: (runId: string) => expireExport(deps, runId),
    queue: () => platformQueue(deps),
    setQueueBound: (bound: number) => setPlatformQueueBound(deps, bound),
  };
}

export type RunsService = ReturnType<typeof createRuns>;
