/**
 * The failures a client call can end in. Both carry `code` and `message` so a
 * caller (the console, a script) can show any of them the same way.
 */

/** A non-2xx answer. code and message come from the spec's error body (part 7). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** From the Retry-After header (429 and sometimes 503), in seconds; null when absent. */
    readonly retryAfterSeconds: number | null,
    readonly method: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** No HTTP answer at all: refused or reset connection, DNS failure, body cut short. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code = 'network_error';
  readonly status = null;
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** waitForRun gave up before the run reached a terminal status. */
export class PollTimeoutError extends Error {
  override readonly name = 'PollTimeoutError';
  readonly code = 'poll_timeout';
  constructor(
    readonly runId: string,
    readonly polls: number,
  ) {
    super(`Run ${runId} was still not terminal after ${polls} polls.`);
  }
}

export type ClientError = ApiError | NetworkError | PollTimeoutError;

export function isClientError(error: unknown): error is ClientError {
  return error instanceof ApiError || error instanceof NetworkError || error instanceof PollTimeoutError;
}

/**
 * Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3).
 * Returns whole seconds, or null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, nowMs: number = Date.now()): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed);
  const atMs = Date.parse(trimmed);
  if (Number.isNaN(atMs)) return null;
  return Math.max(0, Math.ceil((atMs - nowMs) / 1000));
}
