import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors, ServiceError } from '../../domain/errors.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { ApiKeyRecord, Environment, Scope } from '../../domain/keys/index.ts';
import { LIMITS } from '../../domain/limits/index.ts';
import type { KeysService, LimitsService } from '../../domain/services.ts';
import type { Telemetry } from '../../domain/request-log/index.ts';
import { prependRouteHook, scopeOf } from './route-scope.ts';

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
const BEARER = /^Bearer ([^\s]+)$/i;

export function clientAddress(request: FastifyRequest): string {
  return request.socket?.remoteAddress ?? request.ip ?? 'unknown';
}

/** What the checks read: the clock, the environment, keys, the request limits and the key usage count. */
export interface AuthDependencies {
  clock: Clock;
  env: Environment;
  keys: KeysService;
  limits: LimitsService;
  telemetry: Telemetry;
}

export function installAuth(app: FastifyInstance, auth: AuthDependencies): void {
  app.decorateRequest('apiKey', null);
  // Each /v1 route that declares `auth` gets its own onRequest hook (after the global
  // ones), built from its config once: a request does not look its route's options up,
  // and routes without `auth` (/sim, unmatched paths) pay nothing. The hook is
  // synchronous (callback form): nothing in it waits. Because the hook belongs to the
  // route the router matched, every spelling of a path that reaches the route
  // (`/%761/...`) meets its checks; a /v1 route without `auth` is a programming error.
  app.addHook('onRoute', (route) => {
    const config = route.config as FastifyContextConfig | undefined;
    if (!config?.auth) {
      if (scopeOf(route.url ?? route.path) === 'v1') throw new Error(`${route.method} ${route.url}: a /v1 route must declare config.auth`);
      return;
    }
    const check = checker(auth, config);
    const onRequest = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      let failure: unknown = null;
      try {
        check(request);
      } catch (error) {
        failure = error;
      }
      if (failure === null) done();
      else done(failure as Error);
    };
    // First among the route's own hooks, as when it was global.
    prependRouteHook(route, 'onRequest', onRequest);
  });
}

/** Spec 5.2: exactly one credential; two keys are refused like a key and a cookie. */
const twoKeys = () => new ServiceError(400, 'request_rejected', 'Send exactly one credential: one Authorization header, not several.');

function authorizationHeaders(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 13 && raw[i].toLowerCase() === 'authorization') count += 1;
  return count;
}

/** The authentication, scope and rate-limit checks of one route (spec 5, 8); throws the spec's error. */
function checker({ clock, env, keys, limits, telemetry }: AuthDependencies, config: FastifyContextConfig): (request: FastifyRequest) => void {
  const { auth, scope, rehearsal, quoteCreation } = config;
  return (request) => {
    // The rate windows and the key's use count the instant the request arrived; the
    // request's own instant is fixed later, when its body has arrived (lifecycle.ts).
    const now = clock.now();
    const addressWait = limits.refusal(`address:${clientAddress(request)}`, LIMITS.perClientAddressPerMinute, now);
    if (addressWait !== null) throw errors.tooManyRequests(addressWait);
    if (rehearsal && env === 'production') throw errors.unavailable('Rehearsal routes are not available in the production environment.');
    if (auth === 'none') return;
    // Spec 5.2: Node keeps only the first Authorization header in request.headers.
    if (request.headers.authorization !== undefined && authorizationHeaders(request) > 1) throw twoKeys();
    const authorization = request.headers.authorization;
    const cookie = request.headers.cookie;
    const hasCookie = cookie !== undefined && SESSION_COOKIE.test(cookie);
    if (authorization !== undefined && hasCookie) throw errors.bothCredentials();
    if (authorization === undefined) {
      if (auth === 'optional' && !hasCookie) return;
      // The simulator has no web session: a cookie alone is not a credential /v1 accepts from it.
      throw errors.unauthenticated();
    }
    const match = BEARER.exec(authorization);
    const key = match ? keys.authenticate(match[1]) : null;
    if (!key) throw errors.unauthenticated();
    // Known before its limit is checked: a refusal for the key's rate is the key's own request (spec 5 logs it, the conduct report judges it).
    request.apiKey = key;
    const keyWait = limits.refusal(`key:${key.id}`, key.rateLimitPerMinute, now);
    if (keyWait !== null) throw errors.keyRateLimited(keyWait);
    // Counted on arrival; lastUsedAt moves to the request's instant when that is fixed (lifecycle.ts).
    telemetry.keyUsed(key.id, now);
    if (scope && !key.scopes.includes(scope)) throw errors.missingScope();
    if (quoteCreation) {
      const quoteWait = limits.refusal(`quotes:${clientAddress(request)}`, LIMITS.quoteCreationsPerAddressPerMinute, now);
      if (quoteWait !== null) throw errors.tooManyRequests(quoteWait);
    }
  };
}

/** The authenticated key of a route declared with auth 'key'. */
export function keyOf(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey) throw errors.unauthenticated();
  return request.apiKey;
}
