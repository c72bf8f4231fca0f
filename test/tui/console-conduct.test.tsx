import { afterEach, describe, expect, it } from 'vitest';
import { quoteDemoAgent, startConsole, type ConsoleHarness } from './console-harness.tsx';

/**
 * Issue 26: the console passes its own conduct report. A run bought and followed with
 * the clock keys (each may make the console look at the run once), its billing and
 * receipt read, the run reopened after it ended: then the report for the console's key
 * has no failed rule.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

describe("the console's own conduct", () => {
  it('a run followed with the clock keys, then the report for the console key has no failed rule', async () => {
    h = await startConsole();
    await quoteDemoAgent(h);
    h.press('a');
    await h.waitForFrame('acceptedContractHash');
    h.press('y');
    await h.waitForFrame(/Run [0-9a-f]{8}… Token Research Agent/);
    // Quick clock keys, as a presenter would press them.
    for (const key of ['.', '.', ':', '.']) {
      h.press(key);
      await h.waitForFrame((f) => f.includes('clock →'));
    }
    h.press('+', '+', '+');
    await h.waitForFrame('· terminal');
    // More clock keys after the end: the ended run is not read again.
    h.press('.', ':');
    await h.waitForFrame((f) => f.includes('clock →'));
    h.press('b');
    await h.waitForFrame('Status            settled');
    h.press('s');
    await h.waitForFrame('· terminal');
    const keyId = h.store.getState().key!.id;
    const report = await h.client.sim.report(keyId);
    expect(report.rules.filter((r) => r.verdict === 'fail')).toEqual([]);
    // The run was followed: the polling rule saw it end and the run not read after.
    expect(report.rules.find((r) => r.id === 'polling-backs-off')?.verdict).toBe('pass');
  });
});
