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

/** What a line holds beyond its row of numbers: only accepts, quote creations and 429s have it. */
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

/** Numbers per line: seq, atMs, realMs, target (table number or low half), target's high half, and the rest packed. */
const STRIDE = 6;
const SEQ = 0;
const AT = 1;
const REAL = 2;
const TARGET = 3;
const TARGET_HIGH = 4;
const PACKED = 5;

/** Route (16 bits), status + 1 (10 bits, 0: none), flags (4 bits) and chaos (8 bits) in one number (38 bits: exact in a double). */
const pack = (routeId: number, status: number, flags: number, chaos: number) => ((routeId * 1024 + (status + 1)) * 16 + flags) * 256 + chaos;
const unpack = (packed: number) => {
  const chaos = packed % 256;
  const flags = Math.floor(packed / 256) % 16;
  const status = (Math.floor(packed / 4096) % 1024) - 1;
  const routeId = Math.floor(packed / 4_194_304);
  return { routeId, status, flags, chaos };
};

/**
 * One key's lines as rows of numbers in one typed array (a line's numbers side by
 * side: writing one touches one or two cache lines), oldest overwritten first once
 * `limit` are held. A key polled thousands of times holds no object per request, so
 * keeping them costs the server no garbage-collection work on its reads; a
 * ConductLine is made only when the lines are read (the report, GET /sim/conduct).
 */
export class LineRows {
  private size = 0;
  private start = 0;
  private capacity: number;
  private rows: Float64Array;
  private extras = new Map<number, LineExtras>();

  constructor(private readonly limit: number) {
    // Room grows by doubling up to the limit: most keys make a few lines.
    this.capacity = Math.min(64, limit);
    this.rows = new Float64Array(this.capacity * STRIDE);
  }

  push(seq: number, facts: LineFacts): void {
    if (this.size === this.capacity && this.capacity < this.limit) this.grow(Math.min(this.limit, this.capacity * 2));
    let slot: number;
    if (this.size < this.capacity) slot = (this.start + this.size++) % this.capacity;
    else {
      slot = this.start;
      this.start = (this.start + 1) % this.capacity;
      // Most keys' lines have no extras (reads): no lookup then.
      if (this.extras.size !== 0) this.extras.delete(slot);
    }
    const at = slot * STRIDE;
    const rows = this.rows;
    rows[at + SEQ] = seq;
    rows[at + AT] = facts.atMs;
    rows[at + REAL] = facts.realMs;
    // A hashed target's low half takes the place of the table's number.
    rows[at + TARGET] = facts.targetHashed ? facts.targetLow : facts.targetId;
    rows[at + TARGET_HIGH] = facts.targetHigh;
    const flags = (facts.answered ? ANSWERED : 0) | (facts.targetHashed ? TARGET_HASHED : 0) | (facts.runTerminal >= 0 ? RUN_READ : 0) | (facts.runTerminal === 1 ? RUN_TERMINAL : 0);
    rows[at + PACKED] = pack(facts.routeId, facts.status, flags, facts.chaosBits);
    if (facts.extras !== null) this.extras.set(slot, facts.extras);
  }

  /** The lines, oldest first. */
  lines(keyId: string, routes: readonly LineRoute[], targets: readonly string[]): ConductLine[] {
    const out: ConductLine[] = [];
    for (let i = 0; i < this.size; i += 1) {
      const slot = (this.start + i) % this.capacity;
      const at = slot * STRIDE;
      const { routeId, status, flags, chaos } = unpack(this.rows[at + PACKED]);
      const { method, route, group } = routes[routeId];
      const target = this.rows[at + TARGET];
      const line: ConductLine = {
        seq: this.rows[at + SEQ],
        keyId,
        method,
        route,
        group,
        at: new Date(this.rows[at + AT]).toISOString(),
        realMs: this.rows[at + REAL],
        status: status < 0 ? null : status,
        answered: (flags & ANSWERED) !== 0,
        chaos: CHAOS_BITS.filter((_, bit) => (chaos & (1 << bit)) !== 0),
        target: flags & TARGET_HASHED ? hex8(this.rows[at + TARGET_HIGH]) + hex8(target) : targets[target],
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
      const at = ((this.start + i) % this.capacity) * STRIDE;
      if ((unpack(this.rows[at + PACKED]).flags & TARGET_HASHED) === 0) this.rows[at + TARGET] = map(this.rows[at + TARGET]);
    }
  }

  /** The targets its lines name. */
  targetsInUse(into: Set<number>): void {
    for (let i = 0; i < this.size; i += 1) {
      const at = ((this.start + i) % this.capacity) * STRIDE;
      if ((unpack(this.rows[at + PACKED]).flags & TARGET_HASHED) === 0) into.add(this.rows[at + TARGET]);
    }
  }

  private grow(capacity: number): void {
    const rows = new Float64Array(capacity * STRIDE);
    const extras = new Map<number, LineExtras>();
    for (let i = 0; i < this.size; i += 1) {
      const slot = (this.start + i) % this.capacity;
      rows.set(this.rows.subarray(slot * STRIDE, slot * STRIDE + STRIDE), i * STRIDE);
      const e = this.extras.get(slot);
      if (e !== undefined) extras.set(i, e);
    }
    this.rows = rows;
    this.extras = extras;
    this.start = 0;
    this.capacity = capacity;
  }
}
