import type { Simulator } from '../simulator.ts';
import { runChainScriptEntry } from './chain-scripts.ts';
import { prepareAttempt, recordAttempt } from './deliveries.ts';
import { tickMonitor } from './monitor-engine.ts';
import { runStepJob } from './run-worker.ts';

/** Every kind of scheduled job and the domain function that performs it. */
export function registerJobHandlers(sim: Simulator): void {
  sim.scheduler.on('run.step', (job) => runStepJob(sim.deps, job.ref));
  sim.scheduler.on('monitor.tick', (job) => tickMonitor(sim.deps, job.ref));
  // Attempts due at one instant wait on their receivers together; see PhasedJobHandler.
  sim.scheduler.onPhased('delivery.attempt', {
    prepare: (job) => prepareAttempt(sim.deps, job.ref),
    send: (prepared) => sim.send(prepared.request),
    record: (_job, prepared, result) => recordAttempt(sim.deps, prepared, result),
  });
  sim.scheduler.on('chain.script', (job) => runChainScriptEntry(sim.deps, job.ref));
  // Key and quote expiry change nothing stored (status derives from expiresAt); the jobs make the moment visible in `processed`.
  sim.scheduler.on('key.expire', () => undefined);
  sim.scheduler.on('quote.expire', () => undefined);
}
