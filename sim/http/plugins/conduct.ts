import * as crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { monotonicMs } from '../../runtime/clock.ts';
import type { SealingKey } from '../../runtime/sealing.ts';
import type { ChaosDecision } from '../../chaos/engine.ts';
import { groupOf } from '../../chaos/profiles.ts';
import { isTerminal, type RunStatus } from '../../domain/runs/index.ts';
import { chaosBit, type ConductLog, type LineExtras, type LineFacts } from '../../domain/conduct/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * A run read's answer: the run's row as the store holds it (noteRunRead), whose status
     * says whether the run had ended and whose target is worked out once per row.
     */
    runRow: { readonly id: string; readonly status: RunStatus } | null;
    /** An accept's answer: the reservation it holds, in atomic units (noteReservation). Set on accepts only. */
    reservedAtomic?: string;
  }
}

/** The conduct fact every run read gives, declared so each request starts with it (one shape for all requests). */
export function installConductFacts(app: FastifyInstance): void {
  app.decorateRequest('runRow', null);
}

/** A run read answered with this run: the polling rule needs to know whether it had ended (spec 4.6). */
export function noteRunRead(request: FastifyRequest, run: { readonly id: string; readonly status: RunStatus }): void {
  request.runRow = run;
}

/** An accept answered with this reservation: a second one is what a lost answer cost (spec 4.4, 4.5). */
export function noteReservation(request: FastifyRequest, maximumAtomic: string): void {
  request.reservedAtomic = maximumAtomic;
}

// Hashed on every keyed read with an id or a query: the one-shot hash (Node 20.12+) costs
// less than half of a hash object's copy (profiled: the Hash constructor was the larger part).
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
const sha256 = oneShot ? (text: string) => oneShot('sha256', text, 'buffer') : (text: string) => crypto.createHash('sha256').update(text).digest();

/**
 * Records one request of a route. `status` null: no answer (a reset); `answered`
 * false: the client never saw it (a reset, an answer lost after commit).
 */
export type RecordLine = (request: FastifyRequest, reply: FastifyReply | null, status: number | null, answered: boolean, chaos: ChaosDecision | null) => void;

/** Records a request whose answer was written (the request log's own hook calls it). */
export type RecordAnswered = (request: FastifyRequest, reply: FastifyReply) => void;

const chaosBitsOf = (decision: ChaosDecision | null): number => {
  if (decision === null) return 0;
  return (decision.latencyMs > 0 ? chaosBit('latency') : 0) | (decision.fault ? chaosBit(decision.fault) : 0);
};

/** A run read's target: the first 64 bits of its keyed hash, and the key's prefix it was made with. */
interface RunTarget {
  high: number;
  low: number;
  prefixOf: string;
}

/** Faults whose line is written when they happen, before the answer would have been. */
const recordedEarly = (decision: ChaosDecision | null) => decision !== null && (decision.fault === 'reset' || decision.fault === 'lost-after-commit');

/**
 * Turns an answered /v1 request of a key into a conduct line. Hashes are keyed
 * with a secret derived from the sealing key (never in the store files), so a
 * line recognises a repeated idempotency key, body or path without holding it,
 * and nobody holding the lines can test guesses against them.
 */
export class ConductRecorder {
  private readonly startedMs = monotonicMs();
  /** 96 bits of the derived key and a separator, put before each text (prefix-keying is sound with a fixed-length key). */
  private prefix = '';
  private prefixOf = '';
  private readonly routes = new Map<string, RecordLine>();
  /**
   * A run read's target, worked out once per run row: a SHA-256 on every read cost
   * polling about 15 % of its server CPU (measured with and without it). Rows are
   * frozen and replaced on every change; an entry lives while the store holds its row,
   * and holds nothing a line could not (the row is the store's, the value a hash).
   */
  private readonly runTargets = new WeakMap<object, RunTarget>();
  /** Filled again for each line (the log copies it): recording a read allocates nothing of its own. */
  private readonly facts: LineFacts = { keyId: '', routeId: 0, atMs: 0, realMs: 0, status: 0, answered: true, chaosBits: 0, targetId: 0, targetHashed: false, targetHigh: 0, targetLow: 0, runTerminal: -1, extras: null };

  constructor(
    private readonly log: ConductLog,
    private readonly sealing: SealingKey,
    /** The simulated time of a request refused before its instant was fixed (a reset). */
    private readonly now: () => number,
  ) {}

  /**
   * A keyed SHA-256 of the text. The key is 16 characters, so a key, its separator
   * and a 36-character id fit SHA-256's one 55-byte block.
   */
  private digest(text: string): Buffer {
    const key = this.sealing.derive('conduct');
    // The sealing key changes on a reset to another seed.
    if (this.prefixOf !== key) {
      this.prefix = `${Buffer.from(key, 'hex').subarray(0, 12).toString('base64')}\0`;
      this.prefixOf = key;
    }
    return sha256(this.prefix + text);
  }

  /** The digest's first 64 bits, as hex. */
  private hash(text: string): string {
    return this.digest(text).toString('hex', 0, 8);
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
      const decision = request.chaosDecision ?? null;
      if (!recordedEarly(decision)) record(request, reply, reply.statusCode, true, decision);
    };
  }

  private makeRecorder(method: string, url: string): RecordLine {
    const group = groupOf(method, url);
    const hasBody = group === 'accept' || group === 'quote-create';
    const routeId = this.log.routeId(method, url, group);
    // A path without values or query is its own target: nothing to hide, nothing to hash.
    const routeTarget = this.log.targetId(url);
    // Lines are compared route with route, so a path's target hashes only what follows the
    // route's fixed part (a run read: the run id), unless the client spelled that part otherwise.
    const fixed = url.slice(0, url.indexOf(':') === -1 ? url.length : url.indexOf(':'));
    // This route's last run read (a path the store's row names, so it holds nothing a line could not).
    let lastRow: object | null = null;
    let lastPath = '';
    let lastTarget: RunTarget | undefined;
    return (request, reply, status, answered, decision) => {
      const key = request.apiKey;
      if (!key) return;
      const path = request.url;
      const row = request.runRow;
      const facts = this.facts;
      facts.keyId = key.id;
      facts.routeId = routeId;
      facts.atMs = request.simNowMs ?? this.now();
      facts.realMs = Math.round(monotonicMs() - this.startedMs);
      facts.status = status ?? -1;
      facts.answered = answered;
      facts.chaosBits = chaosBitsOf(decision);
      if (path === url) {
        facts.targetId = routeTarget;
        facts.targetHashed = false;
      } else {
        // A poller reads one run again and again: the same row, spelled the same, is the same target.
        let target = row !== null && row === lastRow && path === lastPath && lastTarget?.prefixOf === this.prefixOf ? lastTarget : undefined;
        if (target === undefined) {
          const tail = path.startsWith(fixed) ? path.slice(fixed.length) : path;
          target = this.targetOf(tail, row);
          if (row !== null && row.id === tail) {
            lastRow = row;
            lastPath = path;
            lastTarget = target;
          }
        }
        facts.targetHashed = true;
        facts.targetHigh = target.high;
        facts.targetLow = target.low;
      }
      facts.runTerminal = row !== null && status === 200 ? (isTerminal(row.status) ? 1 : 0) : -1;
      facts.extras = hasBody || status === 429 ? this.extrasOf(request, reply, status, hasBody) : null;
      this.log.recordFacts(facts);
    };
  }

  /**
   * The target of a path's variable part. A run read that names its run as the store does
   * (the usual spelling) hashes the same text as any other read of that path, refused ones
   * included; it is worked out once per row.
   */
  private targetOf(tail: string, row: { readonly id: string } | null): RunTarget {
    const named = row !== null && row.id === tail;
    const known = named ? this.runTargets.get(row) : undefined;
    if (known !== undefined && known.prefixOf === this.prefixOf) return known;
    const digest = this.digest(tail);
    const target = { high: digest.readUInt32BE(0), low: digest.readUInt32BE(4), prefixOf: this.prefixOf };
    if (named) this.runTargets.set(row, target);
    return target;
  }

  /** What an accept, a quote creation or a 429 adds to its line. */
  private extrasOf(request: FastifyRequest, reply: FastifyReply | null, status: number | null, hasBody: boolean): LineExtras {
    const extras: LineExtras = {};
    if (hasBody) {
      const body = request.body as { idempotencyKey?: unknown } | undefined;
      extras.bodyHash = this.hash(JSON.stringify(body ?? null));
      if (typeof body?.idempotencyKey === 'string') extras.idempotencyKeyHash = this.hash(`idempotency\0${body.idempotencyKey}`);
    }
    if (request.reservedAtomic !== undefined && status === 202) extras.reservedAtomic = request.reservedAtomic;
    if (status === 429 && reply) {
      const retryAfter = Number(reply.getHeader('retry-after'));
      if (Number.isFinite(retryAfter)) extras.retryAfterSeconds = retryAfter;
    }
    return extras;
  }
}
