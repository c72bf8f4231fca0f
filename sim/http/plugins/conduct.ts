import * as crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { monotonicMs } from '../../runtime/clock.ts';
import type { SealingKey } from '../../runtime/sealing.ts';
import type { ChaosDecision } from '../../chaos/engine.ts';
import { groupOf, type ChaosKind } from '../../chaos/profiles.ts';
import { isTerminal, type RunStatus } from '../../domain/runs/index.ts';
import type { ConductLog, NewConductLine } from '../../domain/conduct/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether the request's conduct line is written (one line per request, whatever happens after). */
    conductRecorded: boolean;
    /** A run read's answer: whether the run it showed had ended (noteRunRead). */
    runTerminal: boolean | null;
    /** An accept's answer: the reservation it holds, in atomic units (noteReservation). */
    reservedAtomic: string | null;
  }
}

/** The conduct facts only a route's own answer knows, kept on the request until its line is written. */
export function installConductFacts(app: FastifyInstance): void {
  app.decorateRequest('conductRecorded', false);
  app.decorateRequest('runTerminal', null);
  app.decorateRequest('reservedAtomic', null);
}

/** A run read answered with this run: the polling rule needs to know whether it had ended (spec 4.6). */
export function noteRunRead(request: FastifyRequest, status: RunStatus): void {
  request.runTerminal = isTerminal(status);
}

/** An accept answered with this reservation: a second one is what a lost answer cost (spec 4.4, 4.5). */
export function noteReservation(request: FastifyRequest, maximumAtomic: string): void {
  request.reservedAtomic = maximumAtomic;
}

export const kindsOf = (decision: ChaosDecision | null): ChaosKind[] => {
  if (decision === null) return [];
  const kinds: ChaosKind[] = decision.latencyMs > 0 ? ['latency'] : [];
  if (decision.fault) kinds.push(decision.fault);
  return kinds;
};

// Hashed on every keyed read with an id or a query: the one-shot hash (Node 20.12+) costs
// less than half of a hash object's copy (profiled: the Hash constructor was the larger part).
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot ? (text: string) => oneShot('sha256', text, 'hex') : (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Turns an answered /v1 request of a key into a conduct line. Hashes are keyed
 * with a secret derived from the sealing key (never in the store files), so a
 * line recognises a repeated idempotency key, body or path without holding it,
 * and nobody holding the lines can test guesses against them.
 */
export type RecordLine = (request: FastifyRequest, reply: FastifyReply | null, status: number | null, answered: boolean, chaos: ChaosKind[]) => void;

/** Records a request whose answer was written (the request log's own hook calls it). */
export type RecordAnswered = (request: FastifyRequest, reply: FastifyReply) => void;

const NO_CHAOS: ChaosKind[] = [];

export class ConductRecorder {
  private readonly startedMs = monotonicMs();
  /** The derived key and a separator, put before each text (cheaper than an HMAC per request; the key is fixed-length, so prefix-keying is sound). */
  private prefix = '';
  private prefixOf = '';
  private readonly routes = new Map<string, RecordLine>();

  constructor(
    private readonly log: ConductLog,
    private readonly sealing: SealingKey,
  ) {}

  private hash(text: string): string {
    const key = this.sealing.derive('conduct');
    // The sealing key changes on a reset to another seed.
    if (this.prefixOf !== key) {
      this.prefix = `${key}\0`;
      this.prefixOf = key;
    }
    return sha256Hex(this.prefix + text).slice(0, 16);
  }

  /** The recorder of one route's requests, with what the route fixes computed once (one per route, whoever asks). */
  forRoute(method: string, url: string): RecordLine {
    const name = `${method} ${url}`;
    let record = this.routes.get(name);
    if (record === undefined) this.routes.set(name, (record = this.makeRecorder(method, url)));
    return record;
  }

  /** What the request log's hook calls once a /v1 request's answer is written; null where no line is kept. */
  answeredFor(method: string, url: string): RecordAnswered | null {
    // A HEAD route is derived from its GET route: its requests are not the client's reads.
    if (method === 'HEAD') return null;
    const record = this.forRoute(method, url);
    return (request, reply) => {
      if (request.conductRecorded || !request.apiKey) return;
      const decision = request.chaosDecision;
      record(request, reply, reply.statusCode, true, decision === null ? NO_CHAOS : kindsOf(decision));
    };
  }

  private makeRecorder(method: string, url: string): RecordLine {
    const group = groupOf(method, url);
    const hasBody = group === 'accept' || group === 'quote-create';
    return (request, reply, status, answered, chaos) => {
      const key = request.apiKey;
      if (!key || request.conductRecorded) return;
      request.conductRecorded = true;
      const line: NewConductLine = {
        keyId: key.id,
        method,
        route: url,
        group,
        at: request.simNow ?? new Date(request.simNowMs ?? 0).toISOString(),
        realMs: Math.round(monotonicMs() - this.startedMs),
        status,
        answered,
        chaos,
        // A path without values or query is its own target: nothing to hide, nothing to hash.
        target: request.url === url ? url : this.hash(request.url),
      };
      if (hasBody) {
        const body = request.body as { idempotencyKey?: unknown } | undefined;
        line.bodyHash = this.hash(JSON.stringify(body ?? null));
        if (typeof body?.idempotencyKey === 'string') line.idempotencyKeyHash = this.hash(`idempotency\0${body.idempotencyKey}`);
      }
      if (request.reservedAtomic !== null && status === 202) line.reservedAtomic = request.reservedAtomic;
      if (request.runTerminal !== null && status === 200) line.runTerminal = request.runTerminal;
      if (status === 429 && reply) {
        const retryAfter = Number(reply.getHeader('retry-after'));
        if (Number.isFinite(retryAfter)) line.retryAfterSeconds = retryAfter;
      }
      this.log.record(line);
    };
  }
}
