import { render } from 'ink-testing-library';
import { createClient, type Client } from '../../src/client/index.ts';
import { App } from '../../src/tui/app.tsx';
import { createConsoleStore, type ConsoleStore } from '../../src/tui/state/store.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Key sequences as a terminal sends them. */
export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  escape: '\u001B',
  backspace: '\u007F',
} as const;

export interface ConsoleHarness {
  sim: TestSimulator;
  client: Client;
  store: ConsoleStore;
  lastFrame(): string;
  /** Writes each key as its own chunk, as a person typing would. */
  press(...keys: string[]): void;
  /** Resolves with the first frame that satisfies `expected`; fails with the last frame seen. */
  waitForFrame(expected: string | RegExp | ((frame: string) => boolean), timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * The console rendered by ink-testing-library against a real simulator on a
 * loopback port, driven through a real HTTP client with the demo ETH key.
 * ink-testing-library's stdin cannot enter raw mode, so the App is told it
 * is interactive rather than asking the terminal.
 */
export async function startConsole(options: { controlAvailable?: boolean } = {}): Promise<ConsoleHarness> {
  const sim = await startSimulator();
  const baseUrl = await listen(sim.app);
  const demo = sim.demo.find((d) => d.profile === 'local_custody')!;
  const client = createClient({ baseUrl, key: demo.secret, retries: 0 });
  const store = createConsoleStore({ client, controlAvailable: options.controlAvailable ?? true, accountId: demo.accountId });
  const view = render(<App store={store} isInteractive clockRefreshMs={60_000} />);
  const lastFrame = () => view.lastFrame() ?? '';

  return {
    sim,
    client,
    store,
    lastFrame,
    press(...keys) {
      for (const key of keys) view.stdin.write(key);
    },
    async waitForFrame(expected, timeoutMs = 5000) {
      const test =
        typeof expected === 'string' ? (f: string) => f.includes(expected) : expected instanceof RegExp ? (f: string) => expected.test(f) : expected;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const frame = lastFrame();
        if (test(frame)) return frame;
        if (Date.now() > deadline) throw new Error(`No frame matched ${String(expected)} within ${timeoutMs} ms. Last frame:\n${frame}`);
        // Polls the frame (the condition), not a fixed delay before acting.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      view.unmount();
      view.cleanup();
      await sim.destroy();
    },
  };
}
