import { Readable } from 'node:stream';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../../domain/errors.ts';
import { iso } from '../../domain/context.ts';
import { appendRouteHook, prependRouteHook, scopeOf, unmatchedScope } from './route-scope.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { Telemetry } from '../../domain/request-log/index.ts';

/**
 * Hooks around every request: realtime catch-up of due jobs before it runs,
 * no-store caching on keyed responses, the durability gate (an answer leaves
 * only once every change it could have seen is on disk), the request log, and
 * the control token on /sim. Guards hang off the matched route (see route-scope.ts).
 *
 * Every request pays for these, so they are synchronous (callback form) where
 * they can be, and a hook that has nothing to do in this configuration is not
 * registered: the clock's mode and the control token are fixed when the
 * simulator opens (reset and import keep the mode).
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The request's instant (simNowMs) as ISO text. */
    simNow?: string;
    /** The request's instant: when its handler started, or when it was answered without one. */
    simNowMs?: number;
  }
}

// A change the disk refused was taken back by the store (memory as the files):
// nothing this answer reports was applied, so it is the spec's retry-later status.
const notSaved = errors.notSaved();
const NOT_SAVED_BODY = JSON.stringify({ error: { code: notSaved.code, message: notSaved.message } });

/** What the hooks need: the clock, the store's durability, the request log, the control token, the due jobs. */
export interface LifecycleDependencies {
  clock: Clock;
  /** The store's journal: idle when every change is on disk; settled once the pending ones are (rejects when refused). */
  store: { idle(): boolean; settled(): Promise<void> };
  telemetry: Telemetry;
  controlToken: string | null;
  /** Runs what fell due (realtime), unless an advance is already under way: then nothing, and the ticker catches up. */
  catchUpUnlessBusy: () => Promise<unknown> | undefined;
}

export function installLifecycle(app: FastifyInstance, { clock, store, telemetry, controlToken: token, catchUpUnlessBusy }: LifecycleDependencies): void {
  const logRequest = (request: FastifyRequest, reply: FastifyReply, route: string) => {
    telemetry.log({ at: iso(clock.now()), method: request.method, route, status: reply.statusCode, keyId: request.apiKey?.id ?? null });
  };

  // A request happens at one instant: the synchronous part of every handler (all
  // domain calls) reads the same simulated time, so a recorded session replays
  // to the same timestamps, expiries and hashes on a frozen clock. The instant is
  // the one the handler starts at, after the body has arrived: a check such as a
  // quote's expiry is made when the change commits, not when the headers came
  // (authentication counts the key's use and the rate windows on arrival). A request
  // refused before its handler takes the instant of its answer. The key's lastUsedAt
  // is that same instant, so a replay shows the same lastUsedAt. The route's last
  // preHandler hook reads it, and Fastify calls the handler from that hook's done()
  // in the same synchronous run, which reads one instant (the clock holds it, clock.ts).
  const fixInstant = (request: FastifyRequest): number => {
    if (request.simNowMs !== undefined) return request.simNowMs;
    const at = clock.now();
    request.simNowMs = at;
    request.simNow = iso(at);
    if (request.apiKey) telemetry.lastUsedAt(request.apiKey.id, at);
    return at;
  };

  const noStore = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  };

  const atHandlerStart = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    fixInstant(request);
    done();
  };

  app.addHook('onRoute', (route) => {
    // Last, after the drill's (which may hold a request back before its handler runs).
    appendRouteHook(route, 'preHandler', atHandlerStart);
    const scope = scopeOf(route.url ?? route.path);
    const auth = (route.config as FastifyContextConfig | undefined)?.auth;
    // Spec 2.1: every answer of a route that takes a key is no-store, whether the key was
    // sent, missing or refused (the global onSend below covers keys sent to unknown routes).
    if (auth === 'key' || auth === 'optional') prependRouteHook(route, 'onSend', noStore);
    if (scope === 'v1') {
      // The request log entry of a matched route, whose path is known here once (the
      // global hook below logs the unmatched ones).
      const url = route.url;
      const logMatched = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        logRequest(request, reply, url);
        done();
      };
      prependRouteHook(route, 'onResponse', logMatched);
    }
    if (scope === 'sim' && token !== null) {
      const controlToken = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (request.headers['x-understudy-control-token'] !== token) done(errors.unauthenticatedControl());
        else done();
      };
      prependRouteHook(route, 'onRequest', controlToken);
    }
  });

  if (clock.mode === 'realtime') {
    // Realtime: run what fell due first. A GET may so commit jobs, on purpose: on a
    // realtime clock what fell due has happened whoever asks, and a read must show it
    // (a run's step, a delivery's retry), as the production service's own workers would
    // have. The read itself changes nothing; the catch-up is the clock's. While an advance is already under way (a
    // delivery may be waiting on this very caller, e.g. a receiver asking
    // /sim/clock), the request does not queue behind it; the ticker catches up.
    app.addHook('onRequest', async () => {
      if (clock.mode === 'realtime') await catchUpUnlessBusy();
    });
  }

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    fixInstant(request);
    if (request.headers.authorization !== undefined) reply.header('cache-control', 'no-store');
    // The durability gate. When the journal is idle, every change this answer could
    // have seen is already on disk: no promise, no extra turn of the event loop.
    // When those changes were refused (a full disk), the answer is replaced by a 503.
    if (store.idle()) {
      done(null, payload);
      return;
    }
    store.settled().then(
      () => done(null, payload),
      () => {
        reply.code(notSaved.status);
        reply.header('content-type', 'application/json; charset=utf-8');
        // The header of the answer being replaced (an export's artifact) does not describe this one.
        reply.removeHeader('x-service-artifact-id');
        // A streamed answer (an exported snapshot) is dropped unread.
        if (payload instanceof Readable) payload.destroy();
        done(null, NOT_SAVED_BODY);
      },
    );
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.is404 && unmatchedScope(request) === 'v1') logRequest(request, reply, '(unmatched)');
    done();
  });
}
