import type { WebhookSender } from '../runtime/webhook-sender.ts';
import { notify, runChainScriptEntry, tickInTx, type ChainDeps } from './chains/index.ts';
import { prepareAttempt, recordAttempt } from './deliveries/index.ts';
import type { Scheduler } from './jobs/index.ts';
import { runStepJob } from './runs/index.ts';

/** Every kind of scheduled job and the domain function that performs it. */
export function registerJobHandlers(scheduler: Scheduler, deps: ChainDeps, send: WebhookSender): void {
  scheduler.on('run.step', (tx, job) => runStepJob(deps, tx, job.ref));
  scheduler.on('monitor.tick', (tx, job) => tickInTx(deps, tx, job.ref));
  // Attempts due at one instant wait on their receivers together; see PhasedJobHandler.
  scheduler.onPhased('delivery.attempt', {
    prepare: (job) => prepareAttempt(deps, job.ref),
    send: (prepared) => send(prepared.request),
    record: (tx, _job, prepared, result) => recordAttempt(deps, tx, prepared, result, notify),
  });
  scheduler.on('chain.script', (tx, job) => runChainScriptEntry(deps, tx, job.ref));
  // Key and quote expiry change nothing stored (status derives from expiresAt); the jobs make the moment visible in `processed`.
  scheduler.on('key.expire', () => undefined);
  scheduler.on('quote.expire', () => undefined);
}
