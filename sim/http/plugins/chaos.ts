import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { sendError } from './errors.ts';
import type { ChaosEngine, ChaosDecision } from '../../chaos/engine.ts';
import type { ConductLog } from '../../domain/conduct/index.ts';
import type { ConductRecorder, RecordLine } from './conduct.ts';
import { prependRouteHook, scopeOf } from './route-scope.ts';
import { afterRealMs } from '../../runtime/delay.ts';

/**
 * Seeded network chaos on /v1 (never /sim): each request of a /v1 route asks
 * the engine once, as its handler is about to run, what happens to it. Faults that refuse
 * the request (429, 503, 500, a reset) happen before the handler, so nothing is
 * changed; "lost after commit" lets the handler run and every onSend hook pass (the
 * durability gate among them: the change is on disk) and then destroys the connection
 * as the answer is about to be written; a slow body trickles the real answer out.
 *
 * A request chaos leaves alone pays for one test in its handler and nothing else: the
 * two faults that act on the way out take hold of that one request's response
 * object, so no route carries a hook for them.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /**
     * What chaos decided for this request (null or absent: nothing). Set only while a
     * profile injects, so a request chaos leaves alone carries no field for it: a
     * decorator would cost every request's construction a store.
     */
    chaosDecision?: ChaosDecision | null;
  }
}

type Handler = (this: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;
type RawEnd = (chunk?: unknown, encoding?: unknown, callback?: unknown) => ServerResponse;

/** Sends what a handler returned (a value, or a promise of one) unless it answered or hijacked by itself. */
function settle(reply: FastifyReply, result: unknown): void {
  const send = (value: unknown) => {
    if (value !== undefined && value !== reply && !reply.sent) reply.send(value);
  };
  if (result !== null && typeof (result as Promise<unknown> | undefined)?.then === 'function') {
    (result as Promise<unknown>).then(send, (error: unknown) => reply.send(error));
  } else send(result);
}

/**
 * The answer is complete and on disk when Fastify writes its head: the connection
 * goes then, before a byte leaves. (Node drops what is written to the destroyed
 * socket after that; the line is written here, once, whatever Fastify does next.)
 */
function loseAnswer(request: FastifyRequest, reply: FastifyReply, decision: ChaosDecision, record: RecordLine): void {
  const raw = reply.raw;
  const writeHead = raw.writeHead;
  let recorded = false;
  raw.writeHead = function lost(this: ServerResponse, ...args: unknown[]) {
    // Only the first head counts: a failure to write to the destroyed socket may bring a 500 round that the client never sees.
    if (!recorded) record(request, reply, typeof args[0] === 'number' ? args[0] : this.statusCode, false, decision);
    recorded = true;
    const result = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    request.raw.socket?.destroy();
    return result;
  } as typeof raw.writeHead;
}

/** The head arrives, the body does not, yet: a complete answer is written in pieces over `totalMs`. */
function trickleAnswer(reply: FastifyReply, totalMs: number): void {
  const raw = reply.raw;
  const end = raw.end as RawEnd;
  raw.end = function trickled(this: ServerResponse, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    // A streamed answer (an export) ends with no chunk of its own: it flows at its own pace.
    if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return end.call(this, chunk, encoding, callback);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const pieces = 5;
    const size = Math.max(1, Math.ceil(bytes.length / pieces));
    const next = (offset: number) => {
      if (this.destroyed) return;
      if (offset + size >= bytes.length) {
        end.call(this, bytes.subarray(offset));
        return;
      }
      this.write(bytes.subarray(offset, offset + size));
      afterRealMs(Math.round(totalMs / pieces), () => next(offset + size));
    };
    next(0);
    return this;
  } as typeof raw.end;
}

export function installChaos(app: FastifyInstance, chaos: ChaosEngine, conduct: ConductLog, recorder: ConductRecorder): void {
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
    if (url === '/sim/reset') prependRouteHook(route, 'onResponse', resetDone);
    // A HEAD route is derived from its GET route's options; instrumenting it too would decide its requests twice.
    if (scopeOf(url) !== 'v1' || route.method === 'HEAD') return;
    route.handler = chaoticHandler(route.handler as Handler, String(route.method), url, recorder.forRoute(String(route.method), url));
  });

  /**
   * The route's handler behind the fault decision. It runs after the body has
   * been read and validated and the key checked, so a refused or reset request
   * changes nothing, and a reset accept still has the idempotency key the
   * conduct rules compare.
   */
  function chaoticHandler(handler: Handler, method: string, routeUrl: string, record: RecordLine): Handler {
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
            record(request, null, null, false, decision);
            reply.hijack();
            request.raw.socket?.destroy();
            return undefined;
          case 'lost-after-commit':
            loseAnswer(request, reply, decision, record);
            return handler.call(this, request, reply);
          case 'slow-body':
            trickleAnswer(reply, decision.slowBodyMs);
            return handler.call(this, request, reply);
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
}
