import type { Simulator } from '../simulator.ts';
import { runChainScriptEntry } from './chain-scripts.ts';
import { attemptDelivery } from './deliveries.ts';
import { tickMonitor } from './monitor-engine.ts';
import { runStepJob } from './run-worker.ts';

/** Every kind of scheduled job and the domain function that performs it. */
export function registerJobHandlers(sim: Simulator): void {
  sim.scheduler.on('run.step', (job) => runStepJob(sim.deps, job.ref));
  sim.scheduler.on('monitor.tick', (job) => tickMonitor(sim.deps, job.ref));
  sim.scheduler.on('delivery.attempt', (job) => attemptDelivery(sim.deps, sim.send, job.ref));
  sim.scheduler.on('chain.script', (job) => runChainScriptEntry(sim.deps, job.ref));
  // Key and quote expiry change nothing stored (status derives from expiresAt); the jobs make the moment visible in `processed`.
  sim.scheduler.on('key.expire', () => undefined);
  sim.scheduler.on('quote.expire', () => undefined);
}
