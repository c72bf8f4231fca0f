import type { FastifyInstance } from 'fastify';
import type { SealingKey } from '../runtime/sealing.ts';
import { ChaosEngine } from './chaos.ts';
import { chaosRoutes } from './chaos-routes.ts';
import { installDrillHooks } from './hooks.ts';
import { ConductLog } from './log.ts';
import type { RunMoney } from './lost-answers.ts';
import { parseProfile } from './profiles.ts';
import { ConductRecorder } from './recorder.ts';
import { conductRoutes, reportRoutes } from './report-routes.ts';

/**
 * The drill (docs/drill.md): seeded chaos on /v1 and the graded report of how a
 * client behaved under it. In memory, beside the simulator, never in its store.
 */
export interface Drill {
  chaos: ChaosEngine;
  conduct: ConductLog;
  recorder: ConductRecorder;
  /**
   * A new drill on the same profile: no lines, the fault stream from its start, seeded
   * by the simulator's seed now (POST /sim/reset {seed} reseeds it as a new simulator of
   * that seed would be), unless the profile was set with a seed of its own.
   */
  startOver(): void;
}

/** The drill of one simulator, made once where the simulator is wired (the fault stream seeded with the simulator's `seed()`). */
export function createDrill(options: { seed: () => string; chaos?: unknown; sealing: SealingKey; now: () => number }): Drill {
  const chaos = new ChaosEngine(options.seed());
  if (options.chaos !== undefined && options.chaos !== null) chaos.set(parseProfile(options.chaos, '--chaos'));
  const conduct = new ConductLog();
  return {
    chaos,
    conduct,
    recorder: new ConductRecorder(conduct, options.sealing, options.now),
    startOver() {
      conduct.clear();
      chaos.set(chaos.view().profile, options.seed());
    },
  };
}

/** The drill's hooks; installed after the request lifecycle's (its durability gate comes first). */
export function installDrill(app: FastifyInstance, drill: Drill): void {
  installDrillHooks(app, drill);
}

/** PUT/GET /sim/chaos, GET /sim/report, GET /sim/conduct. `moneyOf` reads what the ledger holds for a run. */
export function drillRoutes(app: FastifyInstance, drill: Drill, moneyOf: (runId: string) => RunMoney): void {
  chaosRoutes(app, drill.chaos);
  reportRoutes(app, drill.conduct, moneyOf);
  conductRoutes(app, drill.conduct);
}

export { BUILT_IN_PROFILES, parseProfile, ProfileError, type ChaosProfile } from './profiles.ts';
export type { ConductReport } from './report.ts';
export type { RunMoney } from './lost-answers.ts';
