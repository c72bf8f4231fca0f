import { ApiError, createHttp, type Http } from '../client/http.ts';
import { DEFAULT_RETRY } from '../client/retry.ts';
import { nodeHttpFetch } from './node-http-fetch.ts';

// A scenario states what happens; a retry would hide a refusal it means to show.
const NO_RETRY = { ...DEFAULT_RETRY, retries: 0 };

/**
 * What the typed client cannot do for a scenario: send a call's own `headers`
 * (a session cookie, a malformed Authorization) and keep the headers of an
 * error answer (ApiError keeps only Retry-After). Each Http made here sends
 * through a fetch that adds the step's headers and records the last answer's,
 * over node:http (node-http-fetch.ts says why).
 */
interface Wire {
  extraHeaders: Record<string, string>;
  lastHeaders: Headers | null;
}
const wires = new WeakMap<Http, Wire>();

export function httpFor(baseUrl: string, key?: string): Http {
  const wire: Wire = { extraHeaders: {}, lastHeaders: null };
  const wiredFetch: typeof fetch = async (input, init) => {
    const response = await nodeHttpFetch(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...wire.extraHeaders } });
    wire.lastHeaders = response.headers;
    return response;
  };
  const http = createHttp({ baseUrl, ...(key !== undefined ? { key } : {}), retry: NO_RETRY, fetch: wiredFetch });
  wires.set(http, wire);
  return http;
}

/** One call of a scenario step: its status, body and headers, a refusal answered as data rather than thrown. */
export async function send(http: Http, method: string, path: string, body: unknown, credential: 'key' | 'control' | 'none', extraHeaders: Record<string, string> = {}) {
  const wire = wires.get(http);
  if (wire) {
    // Header names are case-insensitive: lower-cased, a step's header replaces the client's (e.g. authorization).
    wire.extraHeaders = Object.fromEntries(Object.entries(extraHeaders).map(([name, value]) => [name.toLowerCase(), value]));
    wire.lastHeaders = null;
  }
  try {
    const response = await http.send<unknown>({ method: method as never, path, body, credential });
    return { status: response.status, body: response.body, headers: response.headers };
  } catch (error) {
    if (error instanceof ApiError) {
      let headers = wire?.lastHeaders;
      if (!headers) {
        headers = new Headers();
        if (error.retryAfterSeconds !== null) headers.set('retry-after', String(error.retryAfterSeconds));
      }
      return { status: error.status, body: { error: { code: error.code, message: error.message } }, headers };
    }
    throw error;
  } finally {
    if (wire) wire.extraHeaders = {};
  }
}
