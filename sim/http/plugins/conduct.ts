import * as crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { monotonicMs } from '../../runtime/clock.ts';
import type { SealingKey } from '../../runtime/sealing.ts';
import { groupOf, type ChaosKind } from '../../chaos/profiles.ts';
import type { ConductLog, NewConductLine } from '../../domain/conduct/index.ts';

/** Facts read from an answer before it is serialised (sim/domain/conduct/lines.ts says why each is kept). */
export interface Observed {
  reservedAtomic?: string;
  runTerminal?: boolean;
}

// Hashed on every keyed read with an id or a query: the one-shot hash (Node 20.12+) costs
// less than half of a hash object's copy (profiled: the Hash constructor was the larger part).
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot ? (text: string) => oneShot('sha256', text, 'hex') : (text: string) => crypto.createHash('sha256').update(text).digest('hex');

const TERMINAL = new Set(['succeeded', 'partial', 'failed', 'cancelled']);
const RUN_READ = '/v1/runs/:id';
const RUN_STATUS = /^\{"run":\{"id":"[^"]*","status":"([a-z_]+)"/;

type PreSerialization = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => void;

/**
 * Turns an answered /v1 request of a key into a conduct line. Hashes are keyed
 * with a secret derived from the sealing key (never in the store files), so a
 * line recognises a repeated idempotency key, body or path without holding it,
 * and nobody holding the lines can test guesses against them.
 */
export type RecordLine = (request: FastifyRequest, reply: FastifyReply | null, status: number | null, answered: boolean, chaos: ChaosKind[]) => void;

export class ConductRecorder {
  private readonly startedMs = monotonicMs();
  /** The derived key and a separator, put before each text (cheaper than an HMAC per request; the key is fixed-length, so prefix-keying is sound). */
  private prefix = '';
  private prefixOf = '';

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

  /** The recorder of one route's requests, with what the route fixes computed once. */
  forRoute(method: string, url: string): RecordLine {
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
      const observed = request.observed;
      if (observed?.reservedAtomic !== undefined && status === 202) line.reservedAtomic = observed.reservedAtomic;
      if (observed?.runTerminal !== undefined && status === 200) line.runTerminal = observed.runTerminal;
      if (status === 429 && reply) {
        const retryAfter = Number(reply.getHeader('retry-after'));
        if (Number.isFinite(retryAfter)) line.retryAfterSeconds = retryAfter;
      }
      this.log.record(line);
    };
  }

  /**
   * The run read sends its answer already serialised (sim/http/answer-cache.ts),
   * so no preSerialization hook sees it: its status is read from the text,
   * where the run view puts it second, after the id.
   */
  sentObserverFor(method: string | string[], url: string): ((request: FastifyRequest, payload: unknown) => void) | null {
    if (method !== 'GET' || url !== RUN_READ) return null;
    return (request, payload) => {
      if (request.observed) return;
      const head = typeof payload === 'string' ? payload.slice(0, 200) : Buffer.isBuffer(payload) ? payload.subarray(0, 200).toString('latin1') : null;
      const status = head === null ? undefined : RUN_STATUS.exec(head)?.[1];
      if (status) request.observed = { runTerminal: TERMINAL.has(status) };
    };
  }

  /** The hook that reads an accept's reservation (the run read is served pre-serialised: sentObserverFor). */
  observerFor(method: string | string[], url: string): PreSerialization | null {
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
