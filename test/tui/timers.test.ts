import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import type { ConsoleState } from '../../src/tui/state/console-state.ts';
import { createConsoleStore, type ConsoleStore } from '../../src/tui/state/store.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * The console's timers live in its store, started and stopped by actions: a
 * live run in view is polled (spec 4.6) by the store alone, with no view
 * rendered, from `actions.shell.start()` on.
 */
let sim: TestSimulator | null = null;
let store: ConsoleStore | null = null;
afterEach(async () => {
  store?.getState().actions.shell.stop();
  await sim?.destroy();
  sim = null;
  store = null;
});

async function until(condition: (state: ConsoleState) => boolean, what: string, timeoutMs = 8000): Promise<ConsoleState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = store!.getState();
    if (condition(state)) return state;
    if (Date.now() > deadline) throw new Error(`${what}: not reached (run ${JSON.stringify(state.run.read?.run.status)}, pollIndex ${state.run.pollIndex}, error ${JSON.stringify(state.error)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('timers in state', () => {
  it('polls a live run in view from the store alone once started, with the backoff of spec 4.6', async () => {
    sim = await startSimulator();
    const baseUrl = await listen(sim.app);
    const demo = sim.demo.find((d) => d.profile === 'local_custody')!;
    let keys = 0;
    store = createConsoleStore({
      client: createClient({ baseUrl, key: demo.secret, retries: 0 }),
      controlAvailable: true,
      accountId: demo.accountId,
      newIdempotencyKey: () => `timers-test-${++keys}`,
    });
    const { actions } = store.getState();
    await actions.agent.openDemoAgent();
    await actions.quote.quoteAgent();
    await actions.quote.requestQuote();
    actions.quote.startAccept();
    await actions.quote.confirmAccept();
    const accepted = await until((s) => s.screen === 'run' && s.run.read?.run.status === 'queued', 'the accepted run in view');
    expect(accepted.run.pollIndex).toBe(0);

    // No view is rendered: what polls is the store's own timer.
    await actions.shell.start({ clockRefreshMs: 60_000 });
    const polled = await until((s) => s.run.pollIndex >= 2, 'two polls');
    expect(polled.run.read?.run.id).toBe(accepted.run.runId);
    expect(polled.error).toBeNull();
  });
});
