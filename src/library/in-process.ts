import { buildSimulator, type BuiltSimulator } from '../../sim/app.ts';
import { seedDemo, type DemoCredential } from '../../sim/domain/demo.ts';

export { StoreFileError } from '../../sim/store/store-file-error.ts';
export type { BuiltSimulator } from '../../sim/app.ts';
export type { Simulator, SimulatorSnapshot } from '../../sim/simulator.ts';
export type { DemoCredential } from '../../sim/domain/demo.ts';
export type { Environment } from '../../sim/domain/keys/index.ts';

export type InProcessOptions = Parameters<typeof buildSimulator>[0];

/** The demo accounts and keys as seeded, and the instant they belong to. */
export interface SeededDemo {
  credentials: DemoCredential[];
  seededAt: string;
}

export interface InProcessSimulator extends BuiltSimulator {
  /**
   * Seeds the demo accounts, funds and keys at one instant (so a recording
   * replays them exactly); their secrets exist only in the answer, the store
   * keeps hashes. For a new store; an existing one already holds its own.
   */
  seedDemo(): SeededDemo;
}

/**
 * The one place in src/ that starts a simulator inside the calling process:
 * `serve`, the console, the scenario runner and the library entry
 * (`startUnderstudy`) all start theirs here, so what "a simulator started
 * in-process" means (store, app, demo data) is decided once.
 */
export async function openInProcess(options: InProcessOptions): Promise<InProcessSimulator> {
  const built = await buildSimulator(options);
  return {
    ...built,
    seedDemo() {
      // One synchronous run, so one instant (the clock holds it, sim/runtime/clock.ts): the demo rows are made at seededAt.
      const seededAt = built.sim.deps.clock.nowIso();
      return { credentials: seedDemo(built.sim.deps), seededAt };
    },
  };
}
