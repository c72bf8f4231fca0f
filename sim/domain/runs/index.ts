/**
 * Runs, settlement, reports and exports (spec 4.6-4.9), the platform queue and
 * injected faults. The folder's public face: only what code outside it imports
 * (the domain's other files take the stored shapes, records.ts, as types).
 */
export { currentFaults } from './faults.ts';
// setPlatformQueueBound: the bench (bench/populate.ts) lifts the queue's bound to fill a store.
export { checkPlatformQueue, setPlatformQueueBound } from './platform-queue.ts';
export { createPlatform, type PlatformService } from './platform-service.ts';
export type { RunStatus } from './records.ts';
export { addEvent } from './run-events.ts';
export { bindInput } from './run-input.ts';
export { planRun, type ScriptBody } from './run-plan.ts';
export { billingFor, runView } from './run-views.ts';
export { isTerminal, QUEUE_DELAY_MS, runStepJob } from './run-worker.ts';
export { createRuns, type RunsService } from './service.ts';
