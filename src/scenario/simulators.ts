import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInProcess, type InProcessSimulator } from '../library/in-process.ts';
import { throwawayStoreFs } from '../library/throwaway-fs.ts';
import { httpFor, send } from './wire.ts';

/** What a scenario's simulator is made of: the options a reset cannot change, and the seed it can. */
export interface SimulatorNeeds {
  seed: string;
  env: 'test' | 'production';
  limits: boolean;
}

/** A simulator a scenario runs on, listening on loopback, until it hands it back. */
export interface LeasedSimulator {
  built: InProcessSimulator;
  baseUrl: string;
  handBack(): Promise<void>;
}

/** Where scenarios get their simulators. */
export interface ScenarioSimulators {
  take(needs: SimulatorNeeds): Promise<LeasedSimulator>;
  /** Closes what is kept for later scenarios. */
  closeAll(): Promise<void>;
}

/**
 * A new simulator on a frozen clock. Real time stands still for the rate windows:
 * a scenario's time is its advances, and its transcript must not depend on how
 * fast a machine (or a person stepping in the console) runs it. The store lives
 * in a folder removed at the end: nothing reopens it, so it is written
 * unflushed (throwaway-fs.ts).
 */
async function openSimulator(needs: SimulatorNeeds): Promise<{ built: InProcessSimulator; baseUrl: string; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-scenario-'));
  const close = async (built?: InProcessSimulator) => {
    await built?.close();
    await rm(dir, { recursive: true, force: true });
  };
  let built: InProcessSimulator | undefined;
  try {
    built = await openInProcess({ storePath: join(dir, 'store.json'), storeFs: throwawayStoreFs, seed: needs.seed, env: needs.env, clock: 'frozen', webhookTime: 'simulated', limits: needs.limits, realTime: () => 0 });
    const baseUrl = await built.app.listen({ host: '127.0.0.1', port: 0 });
    const opened = built;
    return { built: opened, baseUrl, close: () => close(opened) };
  } catch (error) {
    await close(built);
    throw error;
  }
}

/** Each scenario on a simulator of its own, closed when it ends (the console's stepper, a case check). */
export const newSimulators: ScenarioSimulators = {
  async take(needs) {
    const opened = await openSimulator(needs);
    return { built: opened.built, baseUrl: opened.baseUrl, handBack: opened.close };
  },
  async closeAll() {},
};

/**
 * For a run of many scenarios (`understudy scenario FILE...`): a simulator handed
 * back is kept and, for the next scenario with the same environment and limits,
 * reset to that scenario's seed with POST /sim/reset, which gives the state a new
 * simulator of that seed starts with (the shipped scenarios' transcripts are
 * byte-identical either way: test/scenarios/shared-simulators.test.ts). Building
 * a simulator was most of what a short scenario cost: measured 2026-11-28, all
 * shipped scenarios took 4.2 s of CPU with one simulator each, 3.0 s shared.
 */
export function sharedSimulators(): ScenarioSimulators {
  const kept = new Map<string, Awaited<ReturnType<typeof openSimulator>>>();
  const all: Array<Awaited<ReturnType<typeof openSimulator>>> = [];
  return {
    async take(needs) {
      const kind = `${needs.env} ${needs.limits}`;
      let opened = kept.get(kind);
      kept.delete(kind);
      if (opened) {
        // A new simulator has no chaos: one a scenario set is lifted with the rest.
        const control = httpFor(opened.baseUrl);
        for (const [method, path, body] of [['POST', '/sim/reset', { seed: needs.seed }], ['PUT', '/sim/chaos', { profile: null }]] as const) {
          const answer = await send(control, method, path, body, 'control');
          if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        }
      } else {
        opened = await openSimulator(needs);
        all.push(opened);
      }
      const leased = opened;
      return {
        built: leased.built,
        baseUrl: leased.baseUrl,
        handBack: async () => {
          // Jobs still running (a catch-up a request started) would write into the next scenario's state.
          if (leased.built.sim.scheduler.isBusy) {
            all.splice(all.indexOf(leased), 1);
            await leased.close();
          } else kept.set(kind, leased);
        },
      };
    },
    async closeAll() {
      kept.clear();
      for (const opened of all.splice(0)) await opened.close();
    },
  };
}
