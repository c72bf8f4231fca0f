import type { RouteOptions } from 'fastify';
import { errorResponses } from './common.ts';

/**
 * Fastify reads no body for these methods (its "bodyless" set); for every other
 * method it parses whatever body arrives, schema or not, so the body can be too
 * large or of another content type.
 */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Spec 2.1: every response to a keyed request carries it. Any route can be sent a
 * key (the public ones accept one, the others require one), so every response of
 * every /v1 route declares it; a request without a key gets none.
 */
const CACHE_CONTROL = { type: 'string', const: 'no-store', description: 'no-store on every response to a request that carries a key (spec 2.1).' };

const refusal = (status: number, description: string) => ({ [status]: { ...errorResponses(status)[status], description } });

/** Statuses the app answers around a route's handler, which a route need not list itself. */
const SHARED = {
  all: {
    // The authentication hook's per-client-address limit applies to every /v1 route, the public ones too (spec 8).
    ...refusal(429, 'A request limit was reached (spec 8); Retry-After says when to try again.'),
    ...refusal(500, 'Unexpected failure (spec 7).'),
    // A write the disk refused is answered 503 on any route whose answer could have seen it, reads included.
    ...refusal(503, 'Unavailable: a payment rail, the research provider or export storage (spec 7), or the store could not save a change; nothing was applied. Try again later, not in a tight loop.'),
  },
  withBody: {
    ...refusal(413, 'The request body exceeds 262144 bytes (spec 8).'),
    ...refusal(415, 'The request body is not sent as application/json (spec 2.1).'),
  },
};

function takesBody(method: string): boolean {
  return !BODYLESS_METHODS.has(method.toUpperCase());
}

/**
 * Completes a /v1 route's declared responses (read by Fastify's serializers, the
 * OpenAPI document and the test helper's check) with what the app adds around
 * every route. Run on each route as it is registered (an onRoute hook), before
 * Fastify compiles it. Where a route lists one of these statuses too (many list 429),
 * this declaration, the same body and headers with a description, replaces it.
 */
export function declareSharedResponses(route: RouteOptions): void {
  if (!route.url.startsWith('/v1/')) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const own = ((route.schema ?? {}) as { response?: Record<string, object> }).response ?? {};
  const shared = { ...SHARED.all, ...(methods.some(takesBody) ? SHARED.withBody : {}) };
  const response: Record<string, object> = {};
  for (const [status, schema] of Object.entries<object>({ ...own, ...shared })) {
    const headers = (schema as { headers?: object }).headers;
    response[status] = { ...schema, headers: { ...headers, 'Cache-Control': CACHE_CONTROL } };
  }
  route.schema = { ...(route.schema as object), response };
}
