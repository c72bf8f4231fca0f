import type { FastifyInstance } from 'fastify';
import { ChaosEngine } from '../chaos/engine.ts';
import { parseProfile } from '../chaos/profiles.ts';
import { ConductLog } from '../domain/conduct/lines.ts';
import type { Simulator } from '../simulator.ts';
import { installChaos } from './plugins/chaos.ts';
import { ConductRecorder } from './plugins/conduct.ts';
import { chaosRoutes } from './routes/sim/chaos.ts';
import { conductRoutes, reportRoutes } from './routes/sim/report.ts';

/** Chaos and conduct tracking of one simulator (docs/rehearsal.md): in memory, beside it, never in its store. */
export interface Rehearsal {
  chaos: ChaosEngine;
  conduct: ConductLog;
}

const bySimulator = new WeakMap<Simulator, Rehearsal>();

/** The simulator's rehearsal state, made on first use (the fault stream seeded with `seed`). */
export function rehearsalOf(sim: Simulator, seed = '1'): Rehearsal {
  let rehearsal = bySimulator.get(sim);
  if (!rehearsal) bySimulator.set(sim, (rehearsal = { chaos: new ChaosEngine(seed), conduct: new ConductLog() }));
  return rehearsal;
}

/** The hooks on /v1 (chaos, conduct lines); installed before the routes, whose hooks it adds. */
export function installRehearsal(app: FastifyInstance, sim: Simulator, options: { seed: string; chaos?: unknown }): Rehearsal {
  const rehearsal = rehearsalOf(sim, options.seed);
  if (options.chaos !== undefined && options.chaos !== null) rehearsal.chaos.set(parseProfile(options.chaos, '--chaos'));
  installChaos(app, rehearsal.chaos, rehearsal.conduct, new ConductRecorder(rehearsal.conduct, sim.deps.sealing));
  return rehearsal;
}

/** PUT/GET /sim/chaos, GET /sim/report, GET /sim/conduct. */
export function rehearsalRoutes(app: FastifyInstance, sim: Simulator): void {
  const { chaos, conduct } = rehearsalOf(sim);
  chaosRoutes(app, chaos);
  reportRoutes(app, conduct);
  conductRoutes(app, conduct);
}
