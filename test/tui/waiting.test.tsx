import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, railOf, type Sleep } from '../../src/client/index.ts';
import { withRetry, DEFAULT_RETRY, type RetryWait } from '../../src/client/retry.ts';
import { isWaitFutile } from '../../src/tui/state/waiting.ts';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';
import { acceptDemoQuote } from '../helpers/frames.ts';

/**
 * Accepting at the run limit (spec 8: 3 queued or running) is refused with
 * 429 and Retry-After, which the client waits out before retrying (spec 7).
 * The console shows that wait, lets esc end it, and on a frozen clock (where
 * only simulated time ends runs) offers to advance instead.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

/** A sleep that never ends by itself: only the console (esc, >) can end a wait, so no test waits on wall time. */
const endlessSleep: Sleep = (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));

const TOKEN_AGENT = '850e6f23-fc83-4d0e-a832-d9de0de3dc98';

/** Three runs queued through the key itself, so the account is at the 3-active limit. */
async function fillRunLimit() {
  const rail = railOf('local_custody');
  for (let i = 0; i < 3; i += 1) {
    const quote = await h.client.v1.createQuote(rail, { listingId: TOKEN_AGENT, input: { chain: 'ethereum', address: '0x1111111111111111111111111111111111111111' } });
    await h.client.v1.acceptQuote(rail, quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey: `fill-limit-${i}` });
  }
}

/** The demo agent quoted (2, d, q) and accepted (a, y) at the run limit: the console waits to retry. */
async function acceptAtRunLimit(): Promise<string> {
  h = await startConsole({ client: { retries: 2, sleep: endlessSleep } });
  await h.waitForFrame('Balances');
  await fillRunLimit();
  h.press('2');
  await h.waitForFrame('64 agents · page 1/7');
  return acceptDemoQuote(h, 'Retrying the acceptance in');
}

describe('waiting out Retry-After, visibly', () => {
  it('shows the refusal and a countdown from its Retry-After instead of a silent "Accepting…"', async () => {
    const frame = await acceptAtRunLimit();
    expect(frame).toContain('429 This account already has 3 runs queued or running. Try again when one ends.');
    expect(frame).toMatch(/Retrying the acceptance in 10 s \(Retry-After 10 s, retry 1\) · esc stops waiting/);
    // Frozen clock: waiting cannot end a run, so the console says so and offers the next event.
    expect(frame).toContain('The clock is frozen: waiting changes nothing');
    expect(frame).toMatch(/esc stop waiting\s+> next event, retry now/);
  });

  it('esc stops waiting: the acceptance is refused at once, explained, nothing reserved', async () => {
    await acceptAtRunLimit();
    h.press(KEYS.escape);
    const refused = await h.waitForFrame('Acceptance refused: request_rejected (429)');
    expect(refused).not.toContain('Retrying the acceptance');
    expect(refused).toContain('A rate or run limit');
    expect(h.store.getState().waiting).toBeNull();
    const runs = await h.client.sim.runs(h.store.getState().accountId!);
    expect(runs.filter((r) => r.status === 'queued' || r.status === 'running')).toHaveLength(3);
  });

  it('> on a frozen clock advances to the next event and retries at once', async () => {
    await acceptAtRunLimit();
    const before = (await h.client.sim.clock()).now;
    const attempts = async () => (await h.client.sim.requests()).filter((r) => r.method === 'POST' && /accept$/.test(String(r.route ?? r.path))).length;
    const attemptsBefore = await attempts();
    h.press('>');
    // Either the retry got through (a run ended) or it waits again, on its second retry; both after the clock moved.
    const after = await h.waitForFrame((f) => /Run [0-9a-f]{8}… Token Research Agent/.test(f) || f.includes('retry 2)'));
    expect((await h.client.sim.clock()).now > before).toBe(true);
    expect(await attempts()).toBe(attemptsBefore + 1);
    // One advance: the global > stepped aside for the waiting line's own.
    expect(after).not.toContain('Retrying the acceptance in 10 s (Retry-After 10 s, retry 1)');
  });
});

describe('the retry wait as a caller sees it (src/client/retry.ts)', () => {
  const refusal = new ApiError(429, 'request_rejected', 'This account already has 3 runs queued or running. Try again when one ends.', 10, 'POST', '/v1/custody/quotes/q/accept');
  const options = { ...DEFAULT_RETRY, retries: 2, sleep: endlessSleep };

  it('reports each wait with its Retry-After; giveUp fails the call with the refusal, without another attempt', async () => {
    let attempts = 0;
    const waits: RetryWait[] = [];
    const call = withRetry(
      async () => {
        attempts += 1;
        throw refusal;
      },
      options,
      (wait) => {
        waits.push(wait);
        wait.giveUp();
      },
    );
    await expect(call).rejects.toBe(refusal);
    expect(attempts).toBe(1);
    expect(waits.map((w) => [w.delayMs, w.retryIndex])).toEqual([[10_000, 0]]);
  });

  it('retryNow ends the wait and tries again at once', async () => {
    let attempts = 0;
    const result = await withRetry(
      async () => {
        attempts += 1;
        if (attempts < 3) throw refusal;
        return 'accepted';
      },
      options,
      (wait) => wait.retryNow(),
    );
    expect(result).toBe('accepted');
    expect(attempts).toBe(3);
  });

  it('calls the waits futile on a frozen clock only for what simulated time frees, not request-rate windows', () => {
    const waiting = (message: string) => ({ id: 1, what: 'x', refusal: { code: 'request_rejected', message, status: 429 }, delayMs: 1000, retryIndex: 0, elapsedSeconds: 0 });
    const frozen = { mode: 'frozen' as const, now: '2026-01-01T00:00:00.000Z' };
    expect(isWaitFutile({ clock: frozen, waiting: waiting(refusal.message) })).toBe(true);
    // decisions.md, Limits: the rate windows roll on real time too.
    expect(isWaitFutile({ clock: frozen, waiting: waiting('This API key exceeded its request rate limit. Try again shortly.') })).toBe(false);
    expect(isWaitFutile({ clock: { ...frozen, mode: 'realtime' }, waiting: waiting(refusal.message) })).toBe(false);
  });
});
