import type { Simulator } from '../simulator.ts';

/** Every kind of scheduled job and the domain function that performs it. */
export function registerJobHandlers(sim: Simulator): void {
  // A key's expiry changes nothing stored (status derives from expiresAt); the job makes the moment visible in `processed`.
  sim.scheduler.on('key.expire', () => undefined);
}
