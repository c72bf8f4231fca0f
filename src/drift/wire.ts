import { parseJson } from '../client/json-text.ts';

/** One request of a probe, as sent: the path carries its query already encoded. */
export interface ProbeRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Sent with Authorization: Bearer KEY (spec 5.1); the description is read without one (spec 4). */
  keyed: boolean;
}

/** What came back, whole: every header (lower-case names), the text and its JSON. */
export interface Exchange {
  request: ProbeRequest;
  /** 0 when no answer arrived (`failure` says why). */
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
  /** Local wall-clock instants (ms) around the exchange, for the clock skew. */
  sentAt: number;
  receivedAt: number;
  failure?: string;
}

/** Long enough for a loaded service, short enough that a check never hangs. */
const TIMEOUT_MS = 30_000;

/** Sends one request and keeps its answer as it came; a refusal is an answer, not an error. */
export async function exchange(baseUrl: string, key: string, request: ProbeRequest, now: () => number): Promise<Exchange> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.keyed) headers.authorization = `Bearer ${key}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const sentAt = now();
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    const answerHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answerHeaders[name.toLowerCase()] = value;
    });
    return { request, status: response.status, headers: answerHeaders, text, body: parseJson(text), sentAt, receivedAt: now() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    // The message names the request, never its headers: they hold the key.
    return { request, status: 0, headers: {}, text: '', body: undefined, sentAt, receivedAt: now(), failure: `${request.method} ${request.path} got no answer (${cause?.code ?? (error as Error).name})` };
  }
}

/** The instant an answer's Date header names (whole seconds), or null. */
export function dateOf(answer: Exchange): number | null {
  const value = answer.headers.date;
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}
