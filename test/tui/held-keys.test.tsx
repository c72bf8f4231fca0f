import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '../../src/client/index.ts';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/**
 * Keys typed while a screen loads are kept (issue 28, point 4): on a busy
 * machine `q a y` typed right after `d` arrived before the agent was read,
 * and the first ⏎ on the runs list before the list was. Here the loads are
 * held open by the test (a gate on the client's reads), so the keys surely
 * arrive during them; nothing waits a fixed time.
 */

/** Holds the answers of the named client calls while closed; opening it lets every held and later call through. */
function gate(names: string[]) {
  let open = true;
  let release: () => void = () => {};
  let opened = Promise.resolve();
  const passing = () => (open ? Promise.resolve() : opened);
  const hold = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value = Reflect.get(object, name, receiver);
        if (typeof name !== 'string' || !names.includes(name) || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await passing();
          return value.apply(object, args);
        };
      },
    });
  return {
    wrap: (client: Client): Client => ({ ...client, v1: hold(client.v1), sim: hold(client.sim), waitForRun: client.waitForRun }),
    close() {
      open = false;
      opened = new Promise((resolve) => (release = resolve));
    },
    open() {
      open = true;
      release();
    },
  };
}

let h: ConsoleHarness;
afterEach(() => h?.close());

describe('keys typed while a screen loads', () => {
  it('applies q a y typed during the demo agent’s load, in order, when it ends, and the first ⏎ typed during the runs list’s load', async () => {
    const reads = gate(['listAgents', 'getAgent', 'runs']);
    h = await startConsole({ size: { columns: 80, rows: 24 }, wrapClient: reads.wrap });
    await h.waitForFrame('Balances');

    reads.close();
    h.press('d', 'q', 'a', 'y');
    // The load is still held open: the keys wait, and the hint bar says so.
    const holding = await h.waitForFrame('loading… then q a y');
    expect(holding.split('\n').length).toBeLessThanOrEqual(24);
    expect(h.store.getState().run.runId).toBeNull();
    reads.open();
    const run = await h.waitForFrame(/Run [0-9a-f]{8}… Token Research Agent/);
    const runId = h.store.getState().run.runId!;
    expect(run).toContain(runId.slice(0, 8));
    expect(await h.client.v1.getRun(runId)).toMatchObject({ run: { id: runId } });

    // Back to the runs list (not read yet in this console), and ⏎ at once: the run opens again.
    reads.close();
    h.press(KEYS.escape);
    // (A lone escape directly followed by ⏎ reads as meta+⏎ in any terminal parser: the test lets the escape land first.)
    await h.waitForFrame(() => h.store.getState().run.runId === null && h.store.getState().loading > 0);
    h.press(KEYS.enter);
    await h.waitForFrame('loading… then ⏎');
    expect(h.store.getState().run.runId).toBeNull();
    reads.open();
    await h.waitForFrame(/Run [0-9a-f]{8}… Token Research Agent/);
    expect(h.store.getState().run.list?.map((r) => r.id)).toContain(runId);
    expect(h.store.getState().run.runId).toBe(runId);
    expect(h.store.getState().heldKeys).toEqual([]);
  });

});
