import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';

/**
 * A monitor event by keystrokes: a monitor made with the console's demo key,
 * the console's webhook inbox connected to it through the control API, a
 * matching log mined, and the event seen in notifications and in the inbox.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

/** Screen 5, n: a demo monitor; screen 7, c: destination created, verified and subscribed. */
async function monitorWithInbox(): Promise<{ secret: () => string }> {
  h = await startConsole({ inbox: true });
  // Keep the signing secret the console hands its receiver, to play with it later.
  let secret = '';
  const setSecret = h.inbox!.setSecret.bind(h.inbox);
  h.inbox!.setSecret = (value: string) => {
    secret = value;
    setSecret(value);
  };
  await h.waitForFrame('Balances');
  h.press('5');
  await h.waitForFrame('No monitors: press n');
  h.press('n');
  await h.waitForFrame(/Console demo: token transfe.*base\s+active/);
  h.press('7');
  await h.waitForFrame('destination none yet');
  h.press('c');
  const connected = await h.waitForFrame('✔ destination verified; subscribed 1 monitor');
  // The ownership challenge (spec 6.2) came through the inbox, signed.
  expect(connected).toMatch(/challenge\s+[0-9a-f]{8}…\s+verified\s+200\s+first/);
  return { secret: () => secret };
}

describe('monitors, notifications and the webhook inbox', () => {
  it('shows a matched event in notifications and as a verified delivery; acknowledges and stops', async () => {
    await monitorWithInbox();
    h.press('5');
    await h.waitForFrame(/Console demo: token transfe.*0\/1000/);
    h.press('m');
    await h.waitForFrame('✔ mined block');
    h.press('.');
    await h.waitForFrame('2026-01-01 00:00:01Z');

    h.press('6');
    const notifications = await h.waitForFrame('Console demo: token transfers: Transfer');
    expect(notifications).toContain('1 not acknowledged');
    expect(notifications).toMatch(/monitor\.event\s+Console demo/);
    expect(notifications).toContain('Rule transfers (erc20-transfer) matched Transfer');
    h.press('a');
    await h.waitForFrame('0 not acknowledged');
    expect(h.lastFrame()).toContain('✔ acknowledged "Console demo: token transfers: Transfer"');

    h.press('7');
    const inbox = await h.waitForFrame(/monitor\.event\s+[0-9a-f]{8}…\s+verified\s+200\s+first/);
    expect(inbox).toContain('2 received · 2 verified · 0 retries');

    h.press('5');
    await h.waitForFrame('⏎ for windows, events');
    h.press(KEYS.enter);
    const detail = await h.waitForFrame('Deliveries (1)');
    expect(detail).toContain('Events (1)');
    expect(detail).toMatch(/block \d+ transfers Transfer · active/);
    expect(detail).toMatch(/monitor\.event · delivered · 1 attempt · last delivered 200/);
    expect(detail).toContain('Delivery to 1 destination');
    h.press('x');
    await h.waitForFrame('✔ Console demo: token transfers: stopped');
    h.press(KEYS.escape);
    await h.waitForFrame(/Console demo: token transfe.*stopped/);
  });

  it('lists a retried delivery as the same event id seen again, with each verdict', async () => {
    const { secret } = await monitorWithInbox();
    const right = secret();
    expect(right).not.toBe('');
    // The receiver now verifies with the wrong secret: the first attempt is refused (401).
    h.inbox!.setSecret('not-the-destination-secret');
    h.press('5');
    await h.waitForFrame(/Console demo: token transfe/);
    h.press('m');
    await h.waitForFrame('✔ mined block');
    h.press('7');
    await h.waitForFrame(/\(unverified\)\s+([0-9a-f]{8})…\s+bad-signature\s+401\s+first/);
    // Spec 6.2: the retry comes 5 seconds later with the same event id; now it verifies.
    h.inbox!.setSecret(right);
    h.press(':');
    const retried = await h.waitForFrame(/monitor\.event\s+[0-9a-f]{8}…\s+verified\s+200\s+retry, seen ×2/);
    const [first] = /\(unverified\)\s+([0-9a-f]{8})…\s+bad-signature/.exec(retried)!.slice(1);
    const [second] = /monitor\.event\s+([0-9a-f]{8})…\s+verified/.exec(retried)!.slice(1);
    expect(second).toBe(first);
    expect(retried).toContain('3 received · 2 verified · 1 retries');
  });
});
