import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/** `o` on the scenario screen: a picker of the shipped scenarios and the files opened before, not a bare path prompt. */

let h: ConsoleHarness;
afterEach(() => h?.close());

async function picker(): Promise<string> {
  h = await startConsole({ scenarios: true });
  await h.waitForFrame('Balances');
  h.press('0');
  await h.waitForFrame('Press o to open');
  h.press('o');
  return h.waitForFrame('Open a scenario');
}

describe('scenario picker', () => {
  it('lists fixtures/scenarios; ↓ and ⏎ open one; it is then listed first as recent', async () => {
    const shipped = (await readdir('fixtures/scenarios')).filter((f) => f.endsWith('.json')).sort();
    const frame = await picker();
    expect(frame).toContain('fixtures/scenarios/01-complete-report-charged.json');
    expect(frame).toContain('fixtures/scenarios/02-partial-report-nothing-charged.json');
    expect(frame).toMatch(/⏎ open\s+t type a path\s+esc close/);
    expect(h.store.getState().scenario.picker?.choices.map((c) => c.file.split('/').pop())).toEqual(shipped);

    h.press(KEYS.down, KEYS.down, KEYS.enter);
    await h.waitForFrame('failed-report-nothing-charged · 0/');
    h.press('o');
    const again = await h.waitForFrame('Open a scenario');
    expect(again).toMatch(/recent fixtures\/scenarios\/03-failed-report-nothing-charged\.json/);
    // Listed once: as recent, not again among the shipped ones.
    expect(again.match(/03-failed-report-nothing-charged\.json/g)).toHaveLength(1);
    h.press(KEYS.escape);
    await h.waitForFrame((f) => !f.includes('Open a scenario') && f.includes('failed-report-nothing-charged · 0/'));
  });

  it('t types a path instead, starting from the file under the cursor', async () => {
    await picker();
    h.press(KEYS.down, 't');
    await h.waitForFrame('Scenario file: fixtures/scenarios/02-partial-report-nothing-charged.json█');
    h.press(KEYS.enter);
    await h.waitForFrame('partial-report-nothing-charged · 0/');
  });
});
