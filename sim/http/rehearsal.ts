import type { FastifyInstance } from 'fastify';
import { ChaosEngine } from '../chaos/engine.ts';
import { parseProfile } from '../chaos/profiles.ts';
import { ConductLog } from '../domain/conduct/lines.ts';
import type { SealingKey } from '../runtime/sealing.ts';
import { installChaos } from './plugins/chaos.ts';
import { ConductRecorder } from './plugins/conduct.ts';
import { chaosRoutes } from './routes/sim/chaos.ts';
import { conductRoutes, reportRoutes } from './routes/sim/report.ts';

export interface Rehearsal {
  chaos: ChaosEngine;
  conduct: ConductLog;
}

/**
 * Chaos and conduct tracking (docs/rehearsal.md): the hooks on /v1 and the
 * /sim/chaos and /sim/report routes. Installed before the routes, whose hooks it adds.
 */
export function installRehearsal(app: FastifyInstance, options: { seed: string; sealing: SealingKey; chaos?: unknown }): Rehearsal {
  const chaos = new ChaosEngine(options.seed);
  if (options.chaos !== undefined && options.chaos !== null) chaos.set(parseProfile(options.chaos, '--chaos'));
  const conduct = new ConductLog();
  installChaos(app, chaos, conduct, new ConductRecorder(conduct, options.sealing));
  chaosRoutes(app, chaos);
  reportRoutes(app, conduct);
  conductRoutes(app, conduct);
  return { chaos, conduct };
}
