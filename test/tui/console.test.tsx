import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/** The console's frame: home screen, clock bar, help, errors. */

let h: ConsoleHarness;
afterEach(() => h?.close());

describe('console', () => {
  it('shows the key, its spend bar and the account balances', async () => {
    h = await startConsole();
    const frame = await h.waitForFrame('Balances');
    expect(frame).toContain('2026-01-01 00:00:00Z frozen');
    expect(frame).toContain('demo local_custody');
    expect(frame).toContain('active');
    expect(frame).toContain('monitors:write');
    expect(frame).toMatch(/Spend\s+░+\s+0%\s+0 ETH of 1 ETH/);
    expect(frame).toMatch(/local_custody\s+2 ETH\s+0 ETH/);
    expect(frame).toContain('1,000 SIM');
  });

  it('advances the simulated clock with +', async () => {
    h = await startConsole();
    await h.waitForFrame('00:00:00Z frozen');
    h.press('+');
    await h.waitForFrame('2026-01-01 00:01:00Z frozen');
  });

  it('opens and closes the help overlay', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    h.press('?');
    const help = await h.waitForFrame('Keys (? or esc to close)');
    expect(help).toContain('Catalog');
    expect(help).toContain('next/prev page');
    expect(help).not.toContain('Balances');
    h.press(KEYS.escape);
    await h.waitForFrame('Balances');
    h.press('?');
    await h.waitForFrame('Keys (');
    h.press('?');
    await h.waitForFrame('Balances');
  });

  it('shows a refused search as code and message, and keeps the last page', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    h.press('2');
    await h.waitForFrame('page 1/7');
    h.press('/');
    await h.waitForFrame('search: █');
    // Pasted text arrives as one chunk; the field shows its tail.
    h.press('x'.repeat(101));
    await h.waitForFrame(/search: …x+█/);
    h.press(KEYS.enter);
    const frame = await h.waitForFrame('✖ invalid_input (400):');
    expect(frame).toMatch(/✖ invalid_input \(400\): .*q/);
    expect(frame).toContain('64 agents · page 1/7');
    expect(frame).toContain('no search or filters');
    // The next successful action clears the error line.
    h.press('n');
    const next = await h.waitForFrame('page 2/7');
    expect(next).not.toContain('✖');
  });

  it('shows a revoked key as the 401 of spec part 7', async () => {
    h = await startConsole();
    const home = await h.waitForFrame('Balances');
    expect(home).toContain('active');
    const key = await h.client.v1.getKey();
    await h.client.sim.revokeKey(key.id);
    h.press('r');
    await h.waitForFrame('✖ request_rejected (401): A valid, active API key is required.');
  });

  it('hides control features against a remote service', async () => {
    h = await startConsole({ controlAvailable: false });
    const frame = await h.waitForFrame('demo local_custody');
    expect(frame).toContain('remote service · no control API');
    expect(frame).toContain('hidden against a remote service');
    expect(frame).not.toContain('clock +1 min');
    h.press('+');
    h.press('2');
    await h.waitForFrame('page 1/7');
  });
});
