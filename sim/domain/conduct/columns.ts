import type { ChaosKind } from '../../chaos/profiles.ts';
import { FAULT_KINDS } from '../../chaos/profiles.ts';
import type { ConductLine } from './line.ts';

/** The chaos a line records, as bits: latency first, then the one fault (the order kindsOf gives). */
const CHAOS_BITS: readonly ChaosKind[] = ['latency', ...FAULT_KINDS];
export const chaosBit = (kind: ChaosKind): number => 1 << CHAOS_BITS.indexOf(kind);

const ANSWERED = 1;
const TARGET_HASHED = 2;
const RUN_READ = 4;
const RUN_TERMINAL = 8;

/** What a line holds beyond the columns: only accepts, quote creations and 429s have it. */
export interface LineExtras {
  bodyHash?: string;
  idempotencyKeyHash?: string;
  reservedAtomic?: string;
  retryAfterSeconds?: number;
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/** One route as lines name it. */
export interface LineRoute {
  method: string;
  route: string;
  group: ConductLine['group'];
}

/**
 * The facts of one request, as the recorder hands them over. The recorder fills
 * one such object again for each request (the log copies it), so recording
 * allocates nothing on a plain read.
 */
export interface LineFacts {
  keyId: string;
  routeId: number;
  atMs: number;
  realMs: number;
  /** -1: no answer (the connection was reset first). */
  status: number;
  answered: boolean;
  chaosBits: number;
  /** The target's number in the log's table of targets (ConductLog.targetId), unless hashed. */
  targetId: number;
  /** The target is a keyed hash, kept as its first 64 bits (two 32-bit halves) rather than as text. */
  targetHashed: boolean;
  targetHigh: number;
  targetLow: number;
  /** -1: not a run read; 0, 1: whether the run read had ended. */
  runTerminal: number;
  extras: LineExtras | null;
}

/**
 * One key's lines in columns (typed arrays), oldest overwritten first once
 * `limit` are held. Lines are plain numbers here: a key polled thousands of
 * times holds no object per request, so keeping them costs the server no
 * garbage-collection work on its reads; a ConductLine is made only when the
 * lines are read (the report, GET /sim/conduct).
 */
export class LineColumns {
  private size = 0;
  private start = 0;
  private capacity: number;
  private seq: Float64Array;
  private atMs: Float64Array;
  private realMs: Float64Array;
  private targetId: Uint32Array;
  private targetHigh: Uint32Array;
  private routeId: Uint16Array;
  private status: Int16Array;
  private flags: Uint8Array;
  private chaos: Uint8Array;
  private extras = new Map<number, LineExtras>();

  constructor(private readonly limit: number) {
    // Room grows by doubling up to the limit: most keys make a few lines.
    const capacity = (this.capacity = Math.min(64, limit));
    this.seq = new Float64Array(capacity);
    this.atMs = new Float64Array(capacity);
    this.realMs = new Float64Array(capacity);
    this.targetId = new Uint32Array(capacity);
    this.targetHigh = new Uint32Array(capacity);
    this.routeId = new Uint16Array(capacity);
    this.status = new Int16Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.chaos = new Uint8Array(capacity);
  }

  push(seq: number, facts: LineFacts): void {
    if (this.size === this.capacity && this.capacity < this.limit) this.grow(Math.min(this.limit, this.capacity * 2));
    let slot: number;
    if (this.size < this.capacity) slot = (this.start + this.size++) % this.capacity;
    else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
      this.extras.delete(slot);
    }
    this.seq[slot] = seq;
    this.atMs[slot] = facts.atMs;
    this.realMs[slot] = facts.realMs;
    // A hashed target's low half takes the place of the table's number.
    this.targetId[slot] = facts.targetHashed ? facts.targetLow : facts.targetId;
    this.targetHigh[slot] = facts.targetHigh;
    this.routeId[slot] = facts.routeId;
    this.status[slot] = facts.status;
    this.flags[slot] = (facts.answered ? ANSWERED : 0) | (facts.targetHashed ? TARGET_HASHED : 0) | (facts.runTerminal >= 0 ? RUN_READ : 0) | (facts.runTerminal === 1 ? RUN_TERMINAL : 0);
    this.chaos[slot] = facts.chaosBits;
    if (facts.extras !== null) this.extras.set(slot, facts.extras);
  }

  /** The lines, oldest first. */
  lines(keyId: string, routes: readonly LineRoute[], targets: readonly string[]): ConductLine[] {
    const out: ConductLine[] = [];
    for (let i = 0; i < this.size; i += 1) {
      const slot = (this.start + i) % this.capacity;
      const { method, route, group } = routes[this.routeId[slot]];
      const flags = this.flags[slot];
      const status = this.status[slot];
      const line: ConductLine = {
        seq: this.seq[slot],
        keyId,
        method,
        route,
        group,
        at: new Date(this.atMs[slot]).toISOString(),
        realMs: this.realMs[slot],
        status: status < 0 ? null : status,
        answered: (flags & ANSWERED) !== 0,
        chaos: CHAOS_BITS.filter((_, bit) => (this.chaos[slot] & (1 << bit)) !== 0),
        target: flags & TARGET_HASHED ? hex8(this.targetHigh[slot]) + hex8(this.targetId[slot]) : targets[this.targetId[slot]],
      };
      const extras = this.extras.get(slot);
      if (extras?.bodyHash !== undefined) line.bodyHash = extras.bodyHash;
      if (extras?.idempotencyKeyHash !== undefined) line.idempotencyKeyHash = extras.idempotencyKeyHash;
      if (extras?.reservedAtomic !== undefined) line.reservedAtomic = extras.reservedAtomic;
      if (flags & RUN_READ) line.runTerminal = (flags & RUN_TERMINAL) !== 0;
      if (extras?.retryAfterSeconds !== undefined) line.retryAfterSeconds = extras.retryAfterSeconds;
      out.push(line);
    }
    return out;
  }

  /** Renumbers targets after the log compacts its table. */
  remapTargets(map: (id: number) => number): void {
    for (let i = 0; i < this.size; i += 1) {
      const slot = (this.start + i) % this.capacity;
      if ((this.flags[slot] & TARGET_HASHED) === 0) this.targetId[slot] = map(this.targetId[slot]);
    }
  }

  /** The targets its lines name. */
  targetsInUse(into: Set<number>): void {
    for (let i = 0; i < this.size; i += 1) {
      const slot = (this.start + i) % this.capacity;
      if ((this.flags[slot] & TARGET_HASHED) === 0) into.add(this.targetId[slot]);
    }
  }

  private grow(capacity: number): void {
    const order = Array.from({ length: this.size }, (_, i) => (this.start + i) % this.capacity);
    const move = <T extends Float64Array | Uint32Array | Uint16Array | Int16Array | Uint8Array>(from: T, make: (n: number) => T): T => {
      const to = make(capacity);
      order.forEach((slot, i) => (to[i] = from[slot]));
      return to;
    };
    this.seq = move(this.seq, (n) => new Float64Array(n));
    this.atMs = move(this.atMs, (n) => new Float64Array(n));
    this.realMs = move(this.realMs, (n) => new Float64Array(n));
    this.targetId = move(this.targetId, (n) => new Uint32Array(n));
    this.targetHigh = move(this.targetHigh, (n) => new Uint32Array(n));
    this.routeId = move(this.routeId, (n) => new Uint16Array(n));
    this.status = move(this.status, (n) => new Int16Array(n));
    this.flags = move(this.flags, (n) => new Uint8Array(n));
    this.chaos = move(this.chaos, (n) => new Uint8Array(n));
    const extras = new Map<number, LineExtras>();
    order.forEach((slot, i) => {
      const e = this.extras.get(slot);
      if (e !== undefined) extras.set(i, e);
    });
    this.extras = extras;
    this.start = 0;
    this.capacity = capacity;
  }
}
