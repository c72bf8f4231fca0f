import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../../domain/errors.ts';
import type { Simulator } from '../../simulator.ts';

/**
 * Hooks around every request: realtime catch-up of due jobs before it runs,
 * no-store caching on keyed responses, the durability gate (an answer leaves
 * only once every change it could have seen is on disk), the request log, and
 * the control token on /sim.
 *
 * Every request pays for these, so they are synchronous (callback form) where
 * they can be, and a hook that has nothing to do in this configuration is not
 * registered: the clock's mode and the control token are fixed when the
 * simulator opens (reset and import keep the mode).
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The simulated instant the handler ran at. */
    simNow?: string;
    /** The request's instant, fixed by its first hook that reads the clock (authentication). */
    simNowMs?: number;
  }
}

const SAVE_FAILED_BODY = JSON.stringify({ error: { code: 'internal_error', message: 'The change could not be saved.' } });

export function installLifecycle(app: FastifyInstance, sim: Simulator): void {
  const clock = sim.deps.clock;
  const store = sim.deps.store;

  // The ISO text of the last instant formatted: on a frozen clock (and within a
  // millisecond on a realtime one) every request formats the same instant.
  let lastMs = Number.NaN;
  let lastIso = '';
  const isoAt = (ms: number): string => {
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  };

  const logRequest = (request: FastifyRequest, reply: FastifyReply, route: string) => {
    sim.telemetry.log({ at: isoAt(clock.now()), method: request.method, route, status: reply.statusCode, keyId: request.apiKey?.id ?? null });
  };

  // A request happens at one instant: the synchronous part of every handler (all
  // domain calls) reads the same simulated time, so a recorded session replays
  // to the same timestamps, expiries and hashes on a frozen clock.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function pinned(this: unknown, request, reply) {
      // The instant authentication saw (lastUsedAt, rate windows) is the handler's too.
      const at = request.simNowMs ?? clock.now();
      return clock.pinAt(at, () => {
        request.simNow = isoAt(clock.now());
        return (handler as (...args: unknown[]) => unknown).call(this, request, reply);
      }) as never;
    };
    // The request log entry of a matched route, whose path is known here once (the
    // global hook below logs the unmatched ones). A new array: Fastify derives the
    // HEAD route from the GET route's options, which must not gain this hook twice.
    const url = route.url;
    const logMatched = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (request.url.startsWith('/v1')) logRequest(request, reply, url);
      done();
    };
    const own = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
    route.onResponse = [logMatched, ...own] as never;
  });

  if (sim.controlToken !== null) {
    const token = sim.controlToken;
    app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (request.url.startsWith('/sim') && request.headers['x-understudy-control-token'] !== token) {
        done(errors.unauthenticatedControl());
        return;
      }
      done();
    });
  }

  if (clock.mode === 'realtime') {
    // Realtime: run what fell due first. While an advance is already under way (a
    // delivery may be waiting on this very caller, e.g. a receiver asking
    // /sim/clock), the request does not queue behind it; the ticker catches up.
    app.addHook('onRequest', async () => {
      if (clock.mode === 'realtime' && !sim.scheduler.isBusy) await sim.catchUp();
    });
  }

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (request.headers.authorization !== undefined) reply.header('cache-control', 'no-store');
    // The durability gate. When the journal is idle, every change this answer could
    // have seen is already on disk: no promise, no extra turn of the event loop.
    if (store.idle()) {
      done(null, payload);
      return;
    }
    store.settled().then(
      () => done(null, payload),
      () => {
        reply.code(500);
        reply.header('content-type', 'application/json; charset=utf-8');
        done(null, SAVE_FAILED_BODY);
      },
    );
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.is404 && request.url.startsWith('/v1')) logRequest(request, reply, '(unmatched)');
    done();
  });
}
