import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';
import { acceptDemoQuote } from '../helpers/frames.ts';

/**
 * Keys that cannot be undone ask first, and the hint bar offers only the
 * keys that still do something: both read from the one command table.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

/** The demo agent quoted and accepted (2, d, q, a, y): the run screen of a queued run. */
async function acceptedRun(): Promise<string> {
  h = await startConsole();
  await h.waitForFrame('Balances');
  h.press('2');
  await h.waitForFrame('64 agents · page 1/7');
  await acceptDemoQuote(h);
  return h.store.getState().run.runId!;
}

describe('keys that cannot be undone, and hints that apply', () => {
  it('x asks before cancelling a run; n (or esc) keeps it running, y cancels', async () => {
    const runId = await acceptedRun();
    await h.waitForFrame('x cancel run');
    h.press('x');
    const asked = await h.waitForFrame('this cannot be undone');
    expect(asked).toContain(`Cancel run ${runId.slice(0, 8)}… (queued)?`);
    expect(asked).toMatch(/y yes\s+n no/);
    // The question owns the keyboard: the screen keys wait for the answer.
    expect(asked).not.toContain('b billing');
    h.press('n');
    await h.waitForFrame((f) => !f.includes('this cannot be undone') && f.includes('x cancel run'));
    expect((await h.client.v1.getRun(runId)).run.status).toBe('queued');

    h.press('x');
    await h.waitForFrame('this cannot be undone');
    h.press(KEYS.escape);
    await h.waitForFrame((f) => !f.includes('this cannot be undone'));
    expect((await h.client.v1.getRun(runId)).run.status).toBe('queued');

    h.press('x');
    await h.waitForFrame('this cannot be undone');
    h.press('y');
    await h.waitForFrame('✔ cancelled: the run is cancelled');
    expect((await h.client.v1.getRun(runId)).run.status).toBe('cancelled');
  });

  it('offers x only while the run can still be cancelled: not after it ended', async () => {
    const runId = await acceptedRun();
    await h.waitForFrame('x cancel run');
    h.press('+', '+');
    const ended = await h.waitForFrame('succeeded · terminal');
    expect(ended).not.toContain('x cancel run');
    // Nor does the key do anything: no question, no cancel call.
    h.press('x');
    h.press('b');
    const billing = await h.waitForFrame('Status            settled');
    expect(billing).not.toContain('this cannot be undone');
    expect(h.store.getState().confirm).toBeNull();
    expect((await h.client.v1.getRun(runId)).run.status).toBe('succeeded');
  });
});
