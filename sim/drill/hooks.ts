import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../domain/errors.ts';
import { sendError } from '../http/plugins/errors.ts';
import { scopeOf } from '../http/plugins/route-scope.ts';
import { afterRealMs } from '../runtime/delay.ts';
import type { ChaosDecision, ChaosEngine } from './chaos.ts';
import type { ConductLog } from './log.ts';
import type { ConductRecorder } from './recorder.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the drill did to this request: the chaos decided, and whether its line is written. Null for most requests. */
    drill: { decision: ChaosDecision | null; recorded: boolean } | null;
  }
}

/** Pieces a slow body is written in, spread over the profile's slowBodyMs. */
const SLOW_BODY_PIECES = 5;

/** A complete answer handed out in pieces: the head now, the body over `totalMs`. */
function trickle(bytes: Buffer, totalMs: number): Readable {
  const size = Math.max(1, Math.ceil(bytes.length / SLOW_BODY_PIECES));
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) {
        this.push(null);
        return;
      }
      const piece = bytes.subarray(offset, offset + size);
      const first = offset === 0;
      offset += size;
      if (first) this.push(piece);
      else afterRealMs(Math.round(totalMs / SLOW_BODY_PIECES), () => this.push(piece));
    },
  });
}

const isV1 = (request: FastifyRequest): boolean => {
  const route = request.routeOptions.url;
  // A HEAD request is derived from its GET route: not a read the client's code made.
  return route !== undefined && request.method !== 'HEAD' && scopeOf(route) === 'v1';
};

/**
 * The drill on Fastify's own hooks. preHandler (after authentication and validation,
 * so a refused or reset request changed nothing and a reset accept still has the
 * idempotency key the rules compare): refusals, resets and latency. onSend (after the
 * durability gate, which was registered first: the change is on disk): an answer
 * lost after commit, a slow body. onResponse: the conduct line of every keyed /v1
 * request. /sim/reset clears the log and restarts the fault stream; an advance over
 * HTTP is noted as a clock move.
 */
export function installDrillHooks(app: FastifyInstance, { chaos, conduct: log, recorder, startOver }: { chaos: ChaosEngine; conduct: ConductLog; recorder: ConductRecorder; startOver(): void }): void {
  app.decorateRequest('drill', null);

  const recordOnce = (request: FastifyRequest, reply: FastifyReply | null, status: number | null, answered: boolean) => {
    const state = request.drill ?? (request.drill = { decision: null, recorded: false });
    if (state.recorded) return;
    state.recorded = true;
    recorder.record(request, reply, status, answered, state.decision);
  };

  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (!chaos.active || !isV1(request)) return done();
    const decision = chaos.decide(request.method, request.routeOptions.url!);
    if (decision === null) return done();
    request.drill = { decision, recorded: false };
    const act = () => {
      switch (decision.fault) {
        case 'rate-limited':
          sendError(reply, errors.tooManyRequests(decision.retryAfterSeconds));
          return;
        case 'unavailable':
          sendError(reply, errors.unavailable('The service is temporarily unavailable. Try again later.'));
          return;
        case 'internal-error':
          sendError(reply, errors.internal());
          return;
        case 'reset':
          // Nothing ran: the client sees the connection end with no answer.
          recordOnce(request, null, null, false);
          reply.hijack();
          request.raw.socket?.destroy();
          return;
        default:
          done();
      }
    };
    if (decision.latencyMs === 0) act();
    else afterRealMs(decision.latencyMs, act);
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    if (!isV1(request)) return done(null, payload);
    const fault = request.drill?.decision?.fault;
    if (fault === 'lost-after-commit') {
      // The answer is complete and on disk; the connection goes before a byte of it leaves.
      recordOnce(request, reply, reply.statusCode, false);
      request.raw.socket?.destroy();
    } else if (fault === 'slow-body' && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      return done(null, trickle(typeof payload === 'string' ? Buffer.from(payload) : payload, request.drill!.decision!.slowBodyMs));
    } else if (request.answeredAcceptance !== null) {
      // An accept whose client leaves before its answer is written still made its run: its line must say so.
      reply.raw.once('close', () => recordOnce(request, reply, reply.statusCode, reply.raw.writableFinished));
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const route = request.routeOptions.url;
    if (isV1(request)) recordOnce(request, reply, reply.statusCode, true);
    else if (reply.statusCode === 200 && route === '/sim/clock/advance') log.clockMoved();
    else if (reply.statusCode === 200 && route === '/sim/reset') startOver();
    done();
  });
}
