import type { FastifyInstance } from 'fastify';
import { ChaosEngine } from '../chaos/engine.ts';
import { parseProfile } from '../chaos/profiles.ts';
import { ConductLog } from '../domain/conduct/index.ts';
import type { SealingKey } from '../runtime/sealing.ts';
import { installChaos } from './plugins/chaos.ts';
import { ConductRecorder, installConductFacts } from './plugins/conduct.ts';
import { chaosRoutes } from './routes/sim/chaos.ts';
import { conductRoutes, reportRoutes } from './routes/sim/report.ts';

/** Chaos and conduct tracking of one simulator (docs/rehearsal.md): in memory, beside it, never in its store. */
export interface Rehearsal {
  chaos: ChaosEngine;
  conduct: ConductLog;
  recorder: ConductRecorder;
}

/** The rehearsal state of one simulator, made once where the simulator is wired (the fault stream seeded with `seed`). */
export function createRehearsal(options: { seed: string; chaos?: unknown; sealing: SealingKey; now: () => number }): Rehearsal {
  const chaos = new ChaosEngine(options.seed);
  if (options.chaos !== undefined && options.chaos !== null) chaos.set(parseProfile(options.chaos, '--chaos'));
  const conduct = new ConductLog();
  return { chaos, conduct, recorder: new ConductRecorder(conduct, options.sealing, options.now) };
}

/**
 * Chaos behind each /v1 handler, and the facts a conduct line takes from a route's
 * answer; installed before the routes. The line itself is written from the request
 * log's hook (installLifecycle's `answeredFor`: recorder.answeredFor), so tracking
 * adds no hook of its own to a request. Null: the layer is off (buildSimulator's
 * `rehearsal: false`).
 */
export function installRehearsal(app: FastifyInstance, rehearsal: Rehearsal | null): void {
  // Declared even without the layer: the routes note these facts either way, and a request keeps one shape.
  installConductFacts(app);
  if (rehearsal !== null) installChaos(app, rehearsal.chaos, rehearsal.conduct, rehearsal.recorder);
}

/** PUT/GET /sim/chaos, GET /sim/report, GET /sim/conduct. */
export function rehearsalRoutes(app: FastifyInstance, { chaos, conduct }: Rehearsal): void {
  chaosRoutes(app, chaos);
  reportRoutes(app, conduct);
  conductRoutes(app, conduct);
}
