import { ApiError, NetworkError } from './errors.ts';

/**
 * Spec part 7, retry rules. Which calls may be retried is decided per route
 * (v1.ts, sim.ts); this file decides when and how long to wait:
 * - only network failures, 429 and 5xx other than 503 are retried (a 503 means
 *   a rail or provider is disabled: "later, not in a tight loop");
 * - up to `retries` times (2 by default), waiting 250 ms and doubling;
 * - a Retry-After header replaces the computed wait, capped at 30 seconds.
 */

export type Sleep = (ms: number) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxRetryAfterMs: number;
  sleep: Sleep;
}

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

export async function withRetry<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let retryIndex = 0; ; retryIndex += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retryIndex >= options.retries || !isRetryable(error)) throw error;
      await options.sleep(retryDelayMs(error, retryIndex, options));
    }
  }
}
