import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RunStatus } from '../../domain/runs/index.ts';

/**
 * What a route's answer said that a hook after it may need, noted by the route as it
 * answers instead of read back from the serialised body: a run read's status (did the
 * run end? spec 4.6) and an accept's run and reservation (spec 4.4). The conduct
 * recorder (sim/drill) reads them; routes know nothing of it.
 */
declare module 'fastify' {
  interface FastifyRequest {
    answeredRun: { readonly id: string; readonly status: RunStatus } | null;
    answeredAcceptance: { readonly runId: string; readonly reservedAtomic: string } | null;
  }
}

export function installAnswerFacts(app: FastifyInstance): void {
  app.decorateRequest('answeredRun', null);
  app.decorateRequest('answeredAcceptance', null);
}

/** A run read answered with this run. */
export function noteRunRead(request: FastifyRequest, run: { readonly id: string; readonly status: RunStatus }): void {
  request.answeredRun = run;
}

/** An accept answered with this run and reservation. */
export function noteAcceptance(request: FastifyRequest, runId: string, reservedAtomic: string): void {
  request.answeredAcceptance = { runId, reservedAtomic };
}
