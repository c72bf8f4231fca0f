import * as crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { monotonicMs } from '../runtime/clock.ts';
import type { SealingKey } from '../runtime/sealing.ts';
import { isTerminal } from '../domain/runs/index.ts';
import type { ChaosDecision } from './chaos.ts';
import type { ConductLog } from './log.ts';
import type { ChaosKind } from './profiles.ts';
import { groupOf } from './profiles.ts';

/** The chaos a decision applied, as a line names it. */
const chaosOf = (decision: ChaosDecision | null): ChaosKind[] => {
  if (decision === null) return [];
  const kinds: ChaosKind[] = decision.latencyMs > 0 ? ['latency'] : [];
  if (decision.fault !== null) kinds.push(decision.fault);
  return kinds;
};

/**
 * Turns a keyed /v1 request into a conduct line. Hashes are HMAC-SHA-256 keyed with a
 * secret derived from the sealing key (never in the store files), cut to 64 bits: a
 * line recognises a repeated path, body or idempotency key without holding it, and
 * nobody holding the lines can test guesses against them.
 */
export class ConductRecorder {
  private readonly startedMs = monotonicMs();

  constructor(
    private readonly log: ConductLog,
    private readonly sealing: SealingKey,
    /** The simulated time of a request refused before its instant was fixed (a reset). */
    private readonly now: () => number,
  ) {}

  private hash(text: string): string {
    return crypto.createHmac('sha256', this.sealing.derive('conduct')).update(text).digest('hex').slice(0, 16);
  }

  /**
   * Records one request of a /v1 route. `status` null: no answer at all (a reset);
   * `answered` false: the client never saw the answer. Requests without a key are not
   * a client's conduct the report could attribute (spec 5 logs them all the same).
   */
  record(request: FastifyRequest, reply: FastifyReply | null, status: number | null, answered: boolean, decision: ChaosDecision | null): void {
    const key = request.apiKey;
    const route = request.routeOptions.url;
    if (!key || route === undefined) return;
    const method = request.method;
    const group = groupOf(method, route);
    const path = request.url;
    // A route without values or query is its own target; otherwise the keyed hash of the path and query.
    const target = path === route ? route : this.hash(path);
    const line: Parameters<ConductLog['record']>[0] = {
      keyId: key.id,
      method,
      route,
      group,
      at: new Date(request.simNowMs ?? this.now()).toISOString(),
      realMs: Math.round(monotonicMs() - this.startedMs),
      status,
      answered,
      chaos: chaosOf(decision),
      target,
    };
    if (group === 'accept' || group === 'quote-create') {
      const body = request.body as { idempotencyKey?: unknown } | undefined;
      line.bodyHash = this.hash(`body\0${JSON.stringify(body ?? null)}`);
      if (typeof body?.idempotencyKey === 'string') line.idempotencyKeyHash = this.hash(`idempotency\0${body.idempotencyKey}`);
    }
    const acceptance = request.answeredAcceptance;
    if (acceptance !== null && status === 202) {
      line.runId = acceptance.runId;
      line.reservedAtomic = acceptance.reservedAtomic;
    }
    const run = request.answeredRun;
    if (run !== null && status === 200) line.runTerminal = isTerminal(run.status);
    if (status === 429 && reply !== null) {
      const retryAfter = Number(reply.getHeader('retry-after'));
      if (Number.isFinite(retryAfter)) line.retryAfterSeconds = retryAfter;
    }
    this.log.record(line, key.rateLimitPerMinute);
  }
}
