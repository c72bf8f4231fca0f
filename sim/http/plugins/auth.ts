import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { authenticate } from '../../domain/keys.ts';
import type { ApiKeyRecord, Scope } from '../../domain/records.ts';
import { LIMITS } from '../../domain/rate-limits.ts';
import type { Simulator } from '../../simulator.ts';

/** How a /v1 route authenticates (spec 5 and the scope table). */
export interface RouteAuth {
  /** key: a valid key is required; optional: no key, or a valid key (public catalog); none: credentials ignored. */
  auth: 'key' | 'optional' | 'none';
  scope?: Scope;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth['auth'];
    scope?: Scope;
    /** A /v1/rehearsal route: 503 in the production environment (spec 4). */
    rehearsal?: boolean;
    /** Counts against quote creation's 10 per minute per client address (spec 8). */
    quoteCreation?: boolean;
  }
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
}

const SESSION_COOKIE = /(?:^|;\s*)svc_session=/;

export function clientAddress(request: FastifyRequest): string {
  return request.socket?.remoteAddress ?? request.ip ?? 'unknown';
}

export function installAuth(app: FastifyInstance, sim: Simulator): void {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!request.url.startsWith('/v1') || !config?.auth) return;
    const now = sim.deps.clock.now();
    if (sim.limitsOn) {
      const taken = sim.windows.take(`address:${clientAddress(request)}`, LIMITS.perClientAddressPerMinute, now);
      if (!taken.allowed) throw errors.tooManyRequests(taken.retryAfterSeconds);
    }
    if (config.rehearsal && sim.deps.env === 'production') throw errors.unavailable('Rehearsal routes are not available in the production environment.');
    if (config.auth === 'none') return;
    const authorization = request.headers.authorization;
    const hasCookie = SESSION_COOKIE.test(request.headers.cookie ?? '');
    if (authorization !== undefined && hasCookie) throw errors.bothCredentials();
    if (authorization === undefined) {
      if (config.auth === 'optional' && !hasCookie) return;
      // The simulator has no web session: a cookie alone is not a credential /v1 accepts from it.
      throw errors.unauthenticated();
    }
    const match = /^Bearer ([^\s]+)$/i.exec(authorization);
    const key = match ? authenticate(sim.deps, match[1]) : null;
    if (!key) throw errors.unauthenticated();
    if (sim.limitsOn) {
      const taken = sim.windows.take(`key:${key.id}`, key.rateLimitPerMinute, now);
      if (!taken.allowed) throw errors.keyRateLimited(taken.retryAfterSeconds);
    }
    request.apiKey = key;
    sim.telemetry.keyUsed(key.id, now);
    if (config.scope && !key.scopes.includes(config.scope)) throw errors.missingScope();
    if (config.quoteCreation && sim.limitsOn) {
      const taken = sim.windows.take(`quotes:${clientAddress(request)}`, LIMITS.quoteCreationsPerAddressPerMinute, now);
      if (!taken.allowed) throw errors.tooManyRequests(taken.retryAfterSeconds);
    }
  });
}

/** The authenticated key of a route declared with auth 'key'. */
export function keyOf(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey) throw errors.unauthenticated();
  return request.apiKey;
}
