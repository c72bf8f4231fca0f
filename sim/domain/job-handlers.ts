import type { Simulator } from '../simulator.ts';
import { runStepJob } from './run-worker.ts';

/** Every kind of scheduled job and the domain function that performs it. */
export function registerJobHandlers(sim: Simulator): void {
  sim.scheduler.on('run.step', (job) => runStepJob(sim.deps, job.ref));
  // Key and quote expiry change nothing stored (status derives from expiresAt); the jobs make the moment visible in `processed`.
  sim.scheduler.on('key.expire', () => undefined);
  sim.scheduler.on('quote.expire', () => undefined);
}
