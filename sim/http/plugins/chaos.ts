import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { sendError } from './errors.ts';
import type { ChaosEngine, ChaosDecision } from '../../chaos/engine.ts';
import type { ChaosKind } from '../../chaos/profiles.ts';
import type { ConductLog } from '../../domain/conduct/index.ts';
import { ConductRecorder, type Observed } from './conduct.ts';
import { scopeOf } from './route-scope.ts';
import { afterRealMs } from '../../runtime/delay.ts';

/**
 * Seeded network chaos on /v1 (never /sim): each request of a /v1 route asks
 * the engine once, as its handler is about to run, what happens to it. Faults that refuse
 * the request (429, 503, 500, a reset) happen before the handler, so nothing is
 * changed; "lost after commit" lets the handler run and the durability gate pass
 * (the change is on disk) and then destroys the connection; a slow body trickles
 * the real answer out. With no profile in force each hook returns at its first test.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** What chaos decided for this request (null: nothing). */
    chaosDecision: ChaosDecision | null;
    /** The conduct facts gathered while answering (an accept's reservation, a run read's status). */
    observed: Observed | null;
    /** The status of the answer when it first left the onSend hooks. */
    sentStatus: number | null;
    /** Whether the request's conduct line is written (one line per request, whatever happens after). */
    conductRecorded: boolean;
  }
}

type HookName = 'onSend' | 'preSerialization' | 'onResponse';
type Handler = (this: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;

/** Adds a hook to a route's own list (a new array: the HEAD route derived from a GET must not gain it twice). */
function addRouteHook(route: RouteOptions, name: HookName, hook: unknown, where: 'first' | 'last'): void {
  const current = route[name] as unknown;
  const own = current === undefined ? [] : Array.isArray(current) ? current : [current];
  route[name] = (where === 'first' ? [hook, ...own] : [...own, hook]) as never;
}

const kindsOf = (decision: ChaosDecision | null): ChaosKind[] => {
  if (decision === null) return [];
  const kinds: ChaosKind[] = decision.latencyMs > 0 ? ['latency'] : [];
  if (decision.fault) kinds.push(decision.fault);
  return kinds;
};

/** Splits an answer into pieces sent over `totalMs`: the headers arrive, the body does not, yet. */
function trickle(payload: string | Buffer, totalMs: number): Readable {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const pieces = 5;
  const size = Math.max(1, Math.ceil(bytes.length / pieces));
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const piece = bytes.subarray(offset, offset + size);
      offset += size;
      afterRealMs(Math.round(totalMs / pieces), () => this.push(piece));
    },
  });
}

/** Sends what a handler returned (a value, or a promise of one) unless it answered or hijacked by itself. */
function settle(reply: FastifyReply, result: unknown): void {
  const send = (value: unknown) => {
    if (value !== undefined && value !== reply && !reply.sent) reply.send(value);
  };
  if (result !== null && typeof (result as Promise<unknown> | undefined)?.then === 'function') {
    (result as Promise<unknown>).then(send, (error: unknown) => reply.send(error));
  } else send(result);
}

export function installChaos(app: FastifyInstance, chaos: ChaosEngine, conduct: ConductLog, recorder: ConductRecorder): void {
  app.decorateRequest('chaosDecision', null);
  app.decorateRequest('observed', null);
  app.decorateRequest('sentStatus', null);
  app.decorateRequest('conductRecorded', false);

  // A reset starts a new rehearsal: the conduct log is emptied and the fault stream restarts.
  const resetDone = (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (reply.statusCode === 200) {
      conduct.clear();
      chaos.set(chaos.view().profile);
    }
    done();
  };

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (url === '/sim/reset') addRouteHook(route, 'onResponse', resetDone, 'last');
    // A HEAD route is derived from its GET route's options; instrumenting it too would count its requests twice.
    if (scopeOf(url) !== 'v1' || route.method === 'HEAD') return;
    // Everything a request needs of its route is bound here once: a request never reads its route's options.
    const record = recorder.forRoute(String(route.method), url);
    route.handler = chaoticHandler(route.handler as Handler, String(route.method), url);
    addRouteHook(route, 'onSend', after, 'last');
    addRouteHook(route, 'onResponse', answered, 'last');
    const observe = recorder.observerFor(route.method, url);
    if (observe) addRouteHook(route, 'preSerialization', observe, 'last');
    const observeSent = recorder.sentObserverFor(route.method, url);

    function after(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) {
      // The status of the answer as it first leaves: a failure while writing it (the socket
      // destroyed below) can send the hooks round again with a 500 the client never sees.
      if (request.sentStatus === null) {
        request.sentStatus = reply.statusCode;
        if (observeSent) observeSent(request, payload);
      }
      const decision = request.chaosDecision;
      if (decision === null || decision.fault === null) return done(null, payload);
      if (decision.fault === 'lost-after-commit') {
        // This hook runs after the durability gate (a global onSend): the change is on disk.
        record(request, reply, request.sentStatus ?? reply.statusCode, false, kindsOf(decision));
        request.raw.socket?.destroy();
        return done(null, payload);
      }
      if (decision.fault === 'slow-body' && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        reply.removeHeader('content-length');
        return done(null, trickle(payload, decision.slowBodyMs));
      }
      done(null, payload);
    }

    function answered(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
      const decision = request.chaosDecision;
      // Lost answers and resets were recorded when they happened.
      if (decision === null || (decision.fault !== 'lost-after-commit' && decision.fault !== 'reset')) record(request, reply, request.sentStatus ?? reply.statusCode, true, kindsOf(decision));
      done();
    }

    /**
     * The route's handler behind the fault decision. It runs after the body has
     * been read and validated and the key checked, so a refused or reset request
     * changes nothing, and a reset accept still has the idempotency key the
     * conduct rules compare.
     */
    function chaoticHandler(handler: Handler, method: string, routeUrl: string): Handler {
      return function chaotic(this: unknown, request, reply) {
        if (!chaos.on) return handler.call(this, request, reply);
        const decision = chaos.decide(method, routeUrl);
        request.chaosDecision = decision;
        if (decision === null) return handler.call(this, request, reply);
        const act = (): unknown => {
          switch (decision.fault) {
            // Answered here, not thrown: the error handler would log a chaos 500 as an unexpected failure.
            case 'rate-limited':
              sendError(reply, errors.tooManyRequests(decision.retryAfterSeconds));
              return undefined;
            case 'unavailable':
              sendError(reply, errors.unavailable('The service is temporarily unavailable. Try again later.'));
              return undefined;
            case 'internal-error':
              sendError(reply, errors.internal());
              return undefined;
            case 'reset':
              // Nothing ran: the client sees the connection end with no answer.
              record(request, null, null, false, kindsOf(decision));
              reply.hijack();
              request.raw.socket?.destroy();
              return undefined;
            default:
              return handler.call(this, request, reply);
          }
        };
        if (decision.latencyMs === 0) return act();
        // Later, the handler answers as Fastify would have had it answer: returning
        // nothing now, and sending what it returns then. (Handing Fastify a promise
        // would make it send an empty answer when a handler that sends its own
        // answer resolves before a slow body has started to flow.)
        afterRealMs(decision.latencyMs, () => {
          try {
            settle(reply, act());
          } catch (error) {
            reply.send(error);
          }
        });
        return undefined;
      };
    }
  });
}
