import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { openEmbeddedConsole, type ConsoleWiring, type EmbeddedSettings } from '../../src/cli/tui.ts';
import { App } from '../../src/tui/app.tsx';
import { waitForFrame } from '../helpers/frames.ts';
import { createConsoleStore, type ConsoleStore } from '../../src/tui/state/store.ts';

/**
 * The console exactly as `npm start` wires it (src/cli/tui.ts: the embedded
 * simulator on a store file, the keys kept beside it, the receiver, the
 * evidence folder), rendered by ink-testing-library. Unlike
 * console-harness.tsx, it can be quit and started again on the same store.
 */
export interface WiredConsole {
  wiring: ConsoleWiring;
  store: ConsoleStore;
  lastFrame(): string;
  press(...keys: string[]): void;
  waitForFrame(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Quits as `Q` does: unmounts, then closes the receiver and the simulator (flushing the store). */
  quit(): Promise<void>;
}

export async function startWiredConsole(settings: EmbeddedSettings): Promise<WiredConsole> {
  const wiring = await openEmbeddedConsole(settings);
  const store = createConsoleStore({ ...wiring.options, newIdempotencyKey: counter() });
  const view = render(<App store={store} isInteractive clockRefreshMs={60_000} />);
  const lastFrame = () => view.lastFrame() ?? '';
  let closed = false;
  return {
    wiring,
    store,
    lastFrame,
    press(...keys) {
      for (const key of keys) view.stdin.write(key);
    },
    waitForFrame: (expected, timeoutMs = 8000) => waitForFrame(lastFrame, expected, timeoutMs),
    async quit() {
      if (closed) return;
      closed = true;
      view.unmount();
      view.cleanup();
      await store.getState().actions.scenario.closeScenario();
      await wiring.close();
    },
  };
}

/** Idempotency keys unique across sessions on one store (spec 4.4: a reused key replays). */
let sessions = 0;
function counter(): () => string {
  const session = ++sessions;
  let count = 0;
  return () => `wired-${session}-${++count}`;
}

/** A temporary folder for a store and what the console keeps beside it. */
export async function temporaryFolder(): Promise<{ dir: string; storePath: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-console-'));
  return { dir, storePath: join(dir, 'store.json'), remove: () => rm(dir, { recursive: true, force: true }) };
}
