import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { monotonicMs } from '../../runtime/clock.ts';
import type { SealingKey } from '../../runtime/sealing.ts';
import { groupOf, type ChaosKind } from '../../chaos/profiles.ts';
import type { ConductLog, NewConductLine } from '../../domain/conduct/lines.ts';

/** Facts read from an answer before it is serialised (sim/domain/conduct/lines.ts says why each is kept). */
export interface Observed {
  reservedAtomic?: string;
  runTerminal?: boolean;
}

const TERMINAL = new Set(['succeeded', 'partial', 'failed', 'cancelled']);
const RUN_READ = '/v1/runs/:id';

type PreSerialization = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => void;

/**
 * Turns an answered /v1 request of a key into a conduct line. Hashes are HMACs
 * under a key derived from the sealing key (never in the store files), so a
 * line recognises a repeated idempotency key, body or path without holding it,
 * and nobody holding the lines can test guesses against them.
 */
export class ConductRecorder {
  private readonly startedMs = monotonicMs();

  constructor(
    private readonly log: ConductLog,
    private readonly sealing: SealingKey,
  ) {}

  private hash(text: string): string {
    return createHmac('sha256', this.sealing.derive('conduct')).update(text).digest('hex').slice(0, 16);
  }

  record(request: FastifyRequest, reply: FastifyReply | null, status: number | null, answered: boolean, chaos: ChaosKind[]): void {
    const key = request.apiKey;
    if (!key) return;
    const route = request.routeOptions.url ?? '(unmatched)';
    const group = groupOf(request.method, route);
    const line: NewConductLine = {
      keyId: key.id,
      method: request.method,
      route,
      group,
      at: request.simNow ?? new Date(request.simNowMs ?? 0).toISOString(),
      realMs: Math.round(monotonicMs() - this.startedMs),
      status,
      answered,
      chaos,
      target: this.hash(request.url),
    };
    if (group === 'accept' || group === 'quote-create') {
      const body = request.body as { idempotencyKey?: unknown } | undefined;
      line.bodyHash = this.hash(JSON.stringify(body ?? null));
      if (typeof body?.idempotencyKey === 'string') line.idempotencyKeyHash = this.hash(`idempotency\0${body.idempotencyKey}`);
    }
    const observed = request.observed;
    if (observed?.reservedAtomic !== undefined && status === 202) line.reservedAtomic = observed.reservedAtomic;
    if (observed?.runTerminal !== undefined && status === 200) line.runTerminal = observed.runTerminal;
    if (status === 429 && reply) {
      const retryAfter = Number(reply.getHeader('retry-after'));
      if (Number.isFinite(retryAfter)) line.retryAfterSeconds = retryAfter;
    }
    this.log.record(line);
  }

  /** The hook that reads an accept's reservation or a run read's status, for the routes that have one. */
  observerFor(method: string | string[], url: string): PreSerialization | null {
    if (method === 'GET' && url === RUN_READ) {
      return (request, _reply, payload, done) => {
        const status = (payload as { run?: { status?: string } } | null)?.run?.status;
        if (typeof status === 'string') request.observed = { runTerminal: TERMINAL.has(status) };
        done(null, payload);
      };
    }
    if (method === 'POST' && url.endsWith('/accept')) {
      return (request, _reply, payload, done) => {
        const reserved = (payload as { reservation?: { maximumAtomic?: string } } | null)?.reservation?.maximumAtomic;
        if (typeof reserved === 'string') request.observed = { reservedAtomic: reserved };
        done(null, payload);
      };
    }
    return null;
  }
}
