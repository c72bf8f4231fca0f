import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import cors from '@fastify/cors';
import { errors } from '../../domain/errors.ts';
import { prependRouteHook, scopeOf } from './route-scope.ts';

/**
 * What a web page may do with the simulator.
 *
 * - The keyless /v1 routes (public catalog, capabilities, /v1/openapi.json) are
 *   readable from the origins given to `serve --cors` (none by default),
 *   preflight included. They answer the same to everyone, so reading them from
 *   a page leaks nothing.
 * - Keyed /v1 routes are not: a page would have to hold an API key secret in
 *   script, where every visitor can read it (the real service serves browsers
 *   through a web session, which the simulator does not have). The preflight of
 *   the covered routes does not allow an Authorization header either.
 * - /sim never answers a request carrying an Origin header: browsers send one
 *   on every cross-origin fetch and on every POST, and a page the developer
 *   merely visits could otherwise reset the store or read its snapshot (a POST
 *   without a body needs no preflight, and on loopback no control token is
 *   required). Command-line clients, the console and tests send no Origin.
 */
const PREFLIGHT_CACHE_SECONDS = 600;

export interface BrowserAccess {
  /** Adds the preflight (OPTIONS) routes of the covered routes; call after every route is registered. */
  addPreflightRoutes(): void;
}

export function installBrowserAccess(app: FastifyInstance, origins: readonly string[]): BrowserAccess {
  const covered: string[] = [];
  const refuseBrowsers = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.headers.origin !== undefined) done(errors.forbidden('The control API does not answer browser requests (the request carried an Origin header).'));
    else done();
  };
  const allowed = origins.length === 0 ? null : { origin: origins.includes('*') ? '*' : [...origins] };

  app.addHook('onRoute', (route) => {
    const scope = scopeOf(route.url ?? route.path);
    if (scope === 'sim') prependRouteHook(route, 'onRequest', refuseBrowsers);
    const config = (route.config ?? {}) as FastifyContextConfig & { cors?: unknown };
    const keyless = config.auth === 'optional' || config.auth === 'none';
    if (allowed === null || scope !== 'v1' || !keyless) return;
    route.config = { ...config, cors: allowed } as never;
    if (route.method === 'GET' && !covered.includes(route.url)) covered.push(route.url);
  });

  if (allowed !== null) {
    // Disabled everywhere (origin: false) except where a route's config.cors names the origins.
    void app.register(cors, {
      origin: false,
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['Content-Type'],
      exposedHeaders: ['Retry-After'],
      credentials: false,
      maxAge: PREFLIGHT_CACHE_SECONDS,
      // A preflight without its headers gets the 204 too, not the plugin's plain-text 400.
      strictPreflight: false,
    });
  }

  return {
    addPreflightRoutes() {
      // Each covered route has its own OPTIONS route, so a preflight matches the route it
      // asks about (every spelling the router takes) and nothing else.
      for (const url of covered) {
        app.options(url, {
          config: { auth: 'none', cors: allowed } as never,
          schema: { hide: true },
          // Reached only when the CORS hook did not answer (no allowed origin resolved).
          handler: (_request, reply) => reply.callNotFound(),
        });
      }
    },
  };
}
