import type { FastifyRequest, RouteOptions } from 'fastify';

/**
 * Which API a path belongs to. Guards decide on the route the router matched
 * (its declared pattern), never on the raw request URL: the router decodes
 * percent-encoding before matching, so `/%73im/reset` reaches `/sim/reset`
 * while a raw-URL test would see neither `/sim` nor `/v1`.
 */
export type Scope = 'v1' | 'sim' | null;

export function scopeOf(path: string): Scope {
  if (path === '/v1' || path.startsWith('/v1/')) return 'v1';
  if (path === '/sim' || path.startsWith('/sim/')) return 'sim';
  return null;
}

/**
 * The scope of a request no route matched, read from its path decoded as the
 * router decodes it (decodeURI keeps an encoded '/' encoded, as the router does).
 * Only for answering 404s the way part 4 asks; no guard runs on an unmatched request.
 */
export function unmatchedScope(request: FastifyRequest): Scope {
  const url = request.url;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  try {
    return scopeOf(decodeURI(path));
  } catch {
    return scopeOf(path);
  }
}

type HookName = 'onRequest' | 'preHandler' | 'onSend' | 'onResponse';

/** A route's own hooks of that name, as an array. */
function ownHooks(route: RouteOptions, name: HookName): unknown[] {
  const current = route[name] as unknown;
  return current === undefined ? [] : Array.isArray(current) ? current : [current];
}

/**
 * Puts `hook` first among a route's own hooks of that name. A new array: Fastify
 * derives the HEAD route from the GET route's options, which must not gain a hook twice.
 */
export function prependRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  route[name] = [hook, ...ownHooks(route, name)] as never;
}

/** Puts `hook` last among a route's own hooks of that name (a new array, as prependRouteHook). */
export function appendRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  route[name] = [...ownHooks(route, name), hook] as never;
}
