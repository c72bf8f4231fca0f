import { render } from 'ink-testing-library';
import { listFixtureScenarios } from '../../src/cli/scenario-files.ts';
import { openScenarioFile } from '../../src/scenario/stepper.ts';
import { startWebhookInbox } from '../../src/webhook/inbox.ts';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.ts';
import { App } from '../../src/tui/app.tsx';
import { createConsoleStore, type ConsoleStore } from '../../src/tui/state/store.ts';
import type { ConsoleStoreOptions } from '../../src/tui/state/options.ts';
import type { WebhookInbox } from '../../src/tui/webhook-inbox.ts';
import { waitForFrame } from '../helpers/frames.ts';
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
  pageDown: '\u001B[6~',
  pageUp: '\u001B[5~',
} as const;

export interface ConsoleHarness {
  sim: TestSimulator;
  client: Client;
  store: ConsoleStore;
  /** The console's webhook receiver, when started with { inbox: true }. */
  inbox: WebhookInbox | null;
  lastFrame(): string;
  /** Gives the terminal another size, as a resized terminal does (columns, rows, then a resize event). */
  resize(size: { columns: number; rows: number }): Promise<void>;
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
export async function startConsole(
  options: {
    controlAvailable?: boolean;
    inbox?: boolean;
    scenarios?: boolean;
    clock?: 'frozen' | 'realtime';
    clockRefreshMs?: number;
    realtimeRereadMs?: number;
    /** E.g. retries with a sleep the test ends by hand. */
    client?: Partial<ClientOptions>;
    /** Wraps the console's client (the harness keeps the plain one), e.g. to hold its answers until the test lets them through. */
    wrapClient?: (client: Client) => Client;
    /** E.g. presenter mode with a pacer the test drives. */
    store?: Partial<ConsoleStoreOptions>;
    /** The terminal's size (ink-testing-library's own is 100 columns, no rows): set, then announced as a resize. */
    size?: { columns: number; rows: number };
  } = {},
): Promise<ConsoleHarness> {
  const sim = await startSimulator(options.clock ? { clock: options.clock } : {});
  const baseUrl = await listen(sim.app);
  const demo = sim.demo.find((d) => d.profile === 'local_custody')!;
  const client = createClient({ baseUrl, key: demo.secret, retries: 0, ...options.client });
  // The same wiring as `npm start` (src/cli/tui.ts): the receiver (src/webhook/inbox.ts) and the scenario opener (src/scenario/stepper.ts) are handed in.
  const inbox = options.inbox ? await startWebhookInbox(client) : null;
  let keyCount = 0;
  const store = createConsoleStore({
    client: options.wrapClient ? options.wrapClient(client) : client,
    controlAvailable: options.controlAvailable ?? true,
    accountId: demo.accountId,
    inbox,
    openScenario: options.scenarios ? openScenarioFile : null,
    listScenarioFiles: options.scenarios ? listFixtureScenarios : null,
    newIdempotencyKey: () => `console-test-${++keyCount}`,
    realtimeRereadMs: options.realtimeRereadMs,
    ...options.store,
  });
  const view = render(<App store={store} isInteractive clockRefreshMs={options.clockRefreshMs ?? 60_000} />);
  const setSize = (size: { columns: number; rows: number }) => {
    Object.defineProperty(view.stdout, 'columns', { value: size.columns, configurable: true });
    Object.defineProperty(view.stdout, 'rows', { value: size.rows, configurable: true });
    view.stdout.emit('resize');
  };
  // Ink itself redraws at once on a resize, with what the components rendered for the old size; the console's
  // components then render again for the new one: the frame after that is the resized console.
  const resize = async (size: { columns: number; rows: number }) => {
    setSize(size);
    const written = view.frames.length;
    const deadline = Date.now() + 5000;
    while (view.frames.length <= written) {
      if (Date.now() > deadline) throw new Error(`The console did not redraw at ${size.columns}×${size.rows}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  if (options.size) setSize(options.size);
  const lastFrame = () => view.lastFrame() ?? '';

  return {
    sim,
    client,
    store,
    inbox,
    lastFrame,
    resize,
    press(...keys) {
      for (const key of keys) view.stdin.write(key);
    },
    waitForFrame: (expected, timeoutMs = 5000) => waitForFrame(lastFrame, expected, timeoutMs),
    async close() {
      view.unmount();
      view.cleanup();
      await store.getState().actions.scenario.closeScenario();
      await inbox?.close();
      // A console request still in flight would keep its connection open for the keep-alive timeout.
      const destroying = sim.destroy();
      sim.app.server.closeAllConnections();
      await destroying;
    },
  };
}

/** From the key screen to the demo agent's first quote: 2 (catalog), d (demo agent), q. The frame showing the quote. */
export async function quoteDemoAgent(h: ConsoleHarness): Promise<string> {
  await h.waitForFrame('Balances');
  h.press('2');
  await h.waitForFrame('64 agents · page 1/7');
  h.press('d');
  await h.waitForFrame((f) => f.includes('Token Research Agent') && f.includes('q quote'));
  h.press('q');
  return h.waitForFrame('expires in 4:00');
}
