import { ApiError, NetworkError } from './errors.ts';

/**
 * Spec part 7, retry rules. Which calls may be retried is decided per route
 * (v1.ts, sim.ts); this file decides when and how long to wait:
 * - only network failures, 429 and 5xx other than 503 are retried (a 503 means
 *   a rail or provider is disabled: "later, not in a tight loop");
 * - up to `retries` times (2 by default), waiting 250 ms and doubling;
 * - a Retry-After header replaces the computed wait, capped at 30 seconds.
 */

/** Waits `ms`; an abort (when given a signal) ends the wait early, resolving. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxRetryAfterMs: number;
  sleep: Sleep;
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    // Cleared on abort: a wait given up must not hold the process open for up to 30 s.
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });

export const DEFAULT_RETRY: RetryOptions = { retries: 2, baseDelayMs: 250, maxRetryAfterMs: 30_000, sleep: realSleep };

/**
 * - `safe`: repeating the request cannot do anything twice (every GET; accept
 *   with the same idempotency key; cancel, stop, acknowledge).
 * - `never`: quote creation (spec 4.3: "Lost response: create another quote")
 *   and control calls that change state.
 */
export type RetryPolicy = 'safe' | 'never';

export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (!(error instanceof ApiError)) return false;
  return error.status === 429 || (error.status >= 500 && error.status !== 503);
}

/** The wait before retry number `retryIndex` (0 for the first retry). */
export function retryDelayMs(error: unknown, retryIndex: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxRetryAfterMs'>): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== null) {
    return Math.min(error.retryAfterSeconds * 1000, options.maxRetryAfterMs);
  }
  return options.baseDelayMs * 2 ** retryIndex;
}

/**
 * One wait before a retry, as a caller sees it: what caused it, how long it
 * is, and two ways to end it early. A person at a console should never wait
 * out a Retry-After without being told, nor be unable to stop.
 */
export interface RetryWait {
  /** The failure being retried (an ApiError carries the Retry-After). */
  error: unknown;
  delayMs: number;
  /** 0 for the first retry. */
  retryIndex: number;
  /** Ends the wait and retries at once (e.g. after advancing a frozen clock). */
  retryNow(): void;
  /** Ends the wait without retrying: the call fails with `error`. */
  giveUp(): void;
}

/** Per call: told of each wait before it starts (nothing changes when absent). */
export type RetryObserver = (wait: RetryWait) => void;

export async function withRetry<T>(attempt: () => Promise<T>, options: RetryOptions, observe?: RetryObserver): Promise<T> {
  for (let retryIndex = 0; ; retryIndex += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retryIndex >= options.retries || !isRetryable(error)) throw error;
      if ((await waitBeforeRetry(error, retryIndex, options, observe)) === 'give-up') throw error;
    }
  }
}

async function waitBeforeRetry(error: unknown, retryIndex: number, options: RetryOptions, observe: RetryObserver | undefined): Promise<'retry' | 'give-up'> {
  const delayMs = retryDelayMs(error, retryIndex, options);
  if (!observe) {
    await options.sleep(delayMs);
    return 'retry';
  }
  const ended = new AbortController();
  const outcome = await new Promise<'retry' | 'give-up'>((resolve) => {
    void options.sleep(delayMs, ended.signal).then(() => resolve('retry'));
    observe({ error, delayMs, retryIndex, retryNow: () => resolve('retry'), giveUp: () => resolve('give-up') });
  });
  ended.abort();
  return outcome;
}
