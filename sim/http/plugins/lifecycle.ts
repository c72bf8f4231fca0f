import type { FastifyInstance } from 'fastify';
import { errors } from '../../domain/errors.ts';
import type { Simulator } from '../../simulator.ts';

/**
 * Hooks around every request: realtime catch-up of due jobs before it runs,
 * no-store caching on keyed responses, the durability gate (an answer leaves
 * only once every change it could have seen is on disk), the request log, and
 * the control token on /sim.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The simulated instant the handler ran at. */
    simNow?: string;
  }
}

export function installLifecycle(app: FastifyInstance, sim: Simulator): void {
  // A request happens at one instant: the synchronous part of every handler (all
  // domain calls) reads the same simulated time, so a recorded session replays
  // to the same timestamps, expiries and hashes on a frozen clock.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function pinned(this: unknown, request, reply) {
      return sim.deps.clock.pin(() => {
        request.simNow = sim.deps.clock.nowIso();
        return (handler as (...args: unknown[]) => unknown).call(this, request, reply);
      }) as never;
    };
  });

  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/sim') && sim.controlToken !== null) {
      if (request.headers['x-understudy-control-token'] !== sim.controlToken) {
        throw errors.unauthenticatedControl();
      }
    }
    // Realtime: run what fell due first. While an advance is already under way (a
    // delivery may be waiting on this very caller, e.g. a receiver asking
    // /sim/clock), the request does not queue behind it; the ticker catches up.
    if (sim.deps.clock.mode === 'realtime' && !sim.scheduler.isBusy) await sim.catchUp();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.headers.authorization !== undefined) reply.header('cache-control', 'no-store');
    try {
      await sim.deps.store.settled();
    } catch {
      reply.code(500);
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({ error: { code: 'internal_error', message: 'The change could not be saved.' } });
    }
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith('/v1')) return;
    sim.telemetry.log({
      at: sim.deps.clock.nowIso(),
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      status: reply.statusCode,
      keyId: request.apiKey?.id ?? null,
    });
  });
}
