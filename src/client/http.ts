import { ApiError, NetworkError, parseRetryAfter } from './errors.ts';
import { withRetry, type RetryObserver, type RetryOptions, type RetryPolicy } from './retry.ts';
import { parseJson } from './json-text.ts';

export { ApiError, NetworkError } from './errors.ts';

export const CONTROL_TOKEN_HEADER = 'x-understudy-control-token';

export interface HttpOptions {
  /** The service's base address; request paths (/v1/..., /sim/...) are appended to it. */
  baseUrl: string;
  /** An API key secret, sent as Authorization: Bearer on keyed requests. */
  key?: string;
  /** The simulator's control token, sent on /sim requests when set. */
  controlToken?: string;
  fetch?: typeof fetch;
  retry: RetryOptions;
  /** How long one attempt may wait for its whole answer, in ms (DEFAULT_TIMEOUT_MS when unset). */
  timeoutMs?: number;
}

/**
 * Long enough for a clock advance that waits on slow webhook receivers (5 s
 * an instant, up to 8 at once), short enough that a console never hangs on a
 * server that stopped answering.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** setTimeout's ceiling: a longer delay would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * No complete answer within the client's timeout. A network failure like any
 * other (a GET is retried), but the message names the limit, and the server
 * may still carry the request out.
 */
export class RequestTimeoutError extends NetworkError {
  constructor(
    method: string,
    path: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`${method} ${path} got no answer within ${timeoutMs} ms (the client's timeoutMs) and was abandoned; the server may still complete it.`, method, path, options);
  }
}

/**
 * - `key`: the API key, when one is set (spec 5.1);
 * - `control`: the control token, when one is set (the key is not sent:
 *   /sim stands in for the web session, not for a key);
 * - `none`: no credential (GET /v1/openapi.json: "call without a key").
 */
export type Credential = 'key' | 'control' | 'none';

export type QueryValue = string | number | boolean | undefined | null;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue> | object;
  body?: unknown;
  credential?: Credential;
  /** Defaults to `safe` for GET and `never` otherwise. */
  retry?: RetryPolicy;
  /** Told of each wait before a retry, with a way to cut it short (retry.ts). */
  onRetryWait?: RetryObserver;
}

export interface HttpResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Http {
  send<T>(request: HttpRequest): Promise<HttpResponse<T>>;
}

export function createHttp(options: HttpOptions): Http {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new RangeError(`timeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (got ${String(options.timeoutMs)}).`);
  }

  function urlOf(request: HttpRequest): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
    }
    const search = params.toString();
    return `${base}${request.path}${search ? `?${search}` : ''}`;
  }

  function headersOf(request: HttpRequest, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    // Spec 2.1: a JSON body carries content-type. A body-less POST must not,
    // or a strict server reads an empty JSON document and refuses it.
    if (hasBody) headers['content-type'] = 'application/json';
    const credential = request.credential ?? 'key';
    if (credential === 'key' && options.key) headers.authorization = `Bearer ${options.key}`;
    if (credential === 'control' && options.controlToken) headers[CONTROL_TOKEN_HEADER] = options.controlToken;
    return headers;
  }

  async function sendOnce<T>(request: HttpRequest, payload: string | undefined): Promise<HttpResponse<T>> {
    const url = urlOf(request);
    let response: Response;
    let text: string;
    // The body is inside the limit too: a server may send its headers and then stall.
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      response = await fetchImpl(url, { method: request.method, headers: headersOf(request, payload !== undefined), body: payload, signal });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw new RequestTimeoutError(request.method, request.path, timeoutMs, { cause: error });
      // The message names the request, never its headers: they hold the key.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new NetworkError(`${request.method} ${request.path} failed before an answer arrived (${reason}).`, request.method, request.path, { cause: error });
    }
    const body = parseJson(text);
    if (!response.ok) throw toApiError(request, response, body, text);
    return { status: response.status, body: body as T, headers: response.headers };
  }

  return {
    send<T>(request: HttpRequest) {
      // Serialised once so every retry sends the very same bytes (spec 7:
      // accept is retried with the same idempotency key).
      const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
      const policy = request.retry ?? (request.method === 'GET' ? 'safe' : 'never');
      const attempt = () => sendOnce<T>(request, payload);
      return policy === 'safe' ? withRetry(attempt, options.retry, request.onRetryWait) : attempt();
    },
  };
}

function toApiError(request: HttpRequest, response: Response, body: unknown, text: string): ApiError {
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(response.status, error.code, error.message, retryAfterSeconds, request.method, request.path);
  }
  // Not the spec's error body (a proxy page, an empty 502): keep what there is.
  const detail = text.trim().slice(0, 200) || response.statusText || 'no body';
  return new ApiError(response.status, `http_${response.status}`, `${request.method} ${request.path} answered ${response.status}: ${detail}`, retryAfterSeconds, request.method, request.path);
}
