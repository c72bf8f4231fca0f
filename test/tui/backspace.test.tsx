import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { render } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import { App } from '../../src/tui/app.tsx';
import { createConsoleStore } from '../../src/tui/state/store.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { KEYS, quoteDemoAgent, startConsole, type ConsoleHarness } from './console-harness.tsx';

/**
 * Keys typed faster than the console reads them reach it as one input event
 * (a terminal read returns all that arrived). Every text field must treat
 * such a burst as the same keys one by one: six Backspaces erase six
 * characters, whether written at once or in quick succession.
 */

let h: ConsoleHarness | null = null;
let closeStream: (() => Promise<void>) | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  await closeStream?.();
  closeStream = null;
});

const DEFAULT_FILE = 'fixtures/scenarios/01-complete-report-charged.json';

async function scenarioPrompt(): Promise<ConsoleHarness> {
  const harness = await startConsole({ scenarios: true });
  h = harness;
  await harness.waitForFrame('Balances');
  harness.press('0');
  await harness.waitForFrame('Press o to open');
  harness.press('o');
  await harness.waitForFrame('Open a scenario');
  harness.press('t');
  await harness.waitForFrame(`Scenario file: ${DEFAULT_FILE}█`);
  return harness;
}

describe('Backspace bursts in text fields', () => {
  it('the scenario file prompt: six Backspaces in one write erase six characters', async () => {
    const harness = await scenarioPrompt();
    harness.press(KEYS.backspace.repeat(6));
    await harness.waitForFrame(`Scenario file: ${DEFAULT_FILE.slice(0, -6)}█`);
    expect(harness.store.getState().prompt?.value).toBe(DEFAULT_FILE.slice(0, -6));
  });

  it('a burst mixing Backspaces and letters types them in order', async () => {
    const harness = await scenarioPrompt();
    harness.press(`${KEYS.backspace.repeat(4)}yaml`);
    await harness.waitForFrame(`Scenario file: ${DEFAULT_FILE.slice(0, -4)}yaml█`);
  });

  it('a quote form value: a burst of Backspaces (and ctrl+h) erases', async () => {
    const harness = await startConsole();
    h = harness;
    await quoteDemoAgent(harness);
    harness.press('e');
    await harness.waitForFrame('Quote builder · Token Research Agent');
    harness.press(KEYS.down, KEYS.enter);
    await harness.waitForFrame('Token contract: 0x6B175474E89094C44Da98b954EedeAC495271d0F█');
    harness.press(`${KEYS.backspace.repeat(3)}\b`);
    await harness.waitForFrame('Token contract: 0x6B175474E89094C44Da98b954EedeAC49527█');
  });

  it('the catalog search box: a burst of Backspaces erases', async () => {
    const harness = await startConsole();
    h = harness;
    await harness.waitForFrame('Balances');
    harness.press('2');
    await harness.waitForFrame('64 agents · page 1/7');
    harness.press('/');
    await harness.waitForFrame('search: █');
    harness.press('token', KEYS.backspace.repeat(3));
    await harness.waitForFrame('search: to█');
  });

  it('twenty Backspaces in quick succession on a real input stream erase twenty characters', async () => {
    const view = await renderOnStream();
    await view.waitFor(() => view.store.getState().key !== null);
    view.type('2');
    await view.waitFor(() => view.store.getState().screen === 'catalog');
    view.type('/');
    await view.waitFor(() => view.store.getState().catalog.searchDraft !== null);
    const typed = 'token research agent 24ch';
    view.type(typed);
    await view.waitFor(() => view.store.getState().catalog.searchDraft === typed);
    // Twenty separate writes within one tick: the stream hands them over as one read, as a busy terminal does.
    for (let i = 0; i < 20; i += 1) view.type(KEYS.backspace);
    await view.waitFor(() => view.store.getState().catalog.searchDraft !== typed);
    expect(view.store.getState().catalog.searchDraft).toBe(typed.slice(0, -20));
  });
});

/**
 * The console on a real stream for stdin (ink-testing-library's stdin hands
 * over each write on its own, which no terminal guarantees).
 */
async function renderOnStream() {
  const sim: TestSimulator = await startSimulator();
  const baseUrl = await listen(sim.app);
  const demo = sim.demo.find((d) => d.profile === 'local_custody')!;
  const client = createClient({ baseUrl, key: demo.secret, retries: 0 });
  const store = createConsoleStore({ client, controlAvailable: true, accountId: demo.accountId });
  const stdin = Object.assign(new PassThrough({ encoding: 'utf8' }), { isTTY: true, setRawMode: () => undefined, ref: () => undefined, unref: () => undefined });
  const stdout = Object.assign(new EventEmitter(), { columns: 100, rows: 30, write: () => true });
  const instance = render(<App store={store} isInteractive clockRefreshMs={60_000} />, {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  closeStream = async () => {
    instance.unmount();
    const destroying = sim.destroy();
    sim.app.server.closeAllConnections();
    await destroying;
  };
  return {
    store,
    type: (text: string) => void stdin.write(text),
    async waitFor(condition: () => boolean, timeoutMs = 5000) {
      for (let waited = 0; !condition(); waited += 10) {
        if (waited > timeoutMs) throw new Error(`condition not met; search box holds ${JSON.stringify(store.getState().catalog.searchDraft)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
