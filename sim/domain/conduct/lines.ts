import type { ChaosKind, RouteGroup } from '../../chaos/profiles.ts';

/**
 * One request of a key, as the conduct rules need it and as spec 5 allows
 * keeping it: route (the declared pattern, never the path's values), method,
 * time and status, plus what understudy itself did (the chaos applied) and
 * keyed hashes that recognise a repeat without holding what was repeated.
 */
export interface ConductLine {
  /** Position in the simulator's conduct log (orders lines across keys). */
  seq: number;
  keyId: string;
  method: string;
  route: string;
  group: RouteGroup;
  /** Simulated time of the request (ISO). */
  at: string;
  /** Real time, milliseconds since the simulator started: the client's own waits are judged on it. */
  realMs: number;
  /** The status answered; null when the connection was reset before any answer. */
  status: number | null;
  /** Whether the answer reached the client (false: reset, or lost after commit). */
  answered: boolean;
  chaos: ChaosKind[];
  /** Keyed hash of the path and query: the same resource asked again, without the ids. */
  target: string;
  /** Keyed hashes (accepts, quote creations): the same body / idempotency key sent again. */
  bodyHash?: string;
  idempotencyKeyHash?: string;
  /** An accept that holds a reservation: the quote maximum moved to it (atomic units). */
  reservedAtomic?: string;
  /** A run read that answered 200: whether the run's status was terminal (spec 3.2). */
  runTerminal?: boolean;
  /** A 429's Retry-After, in seconds. */
  retryAfterSeconds?: number;
}

export type NewConductLine = Omit<ConductLine, 'seq'>;

/** Lines kept per key, oldest dropped first: a rehearsal is minutes, not days. */
export const LINES_PER_KEY = 5000;
/** Keys tracked, the least recently seen dropped first. */
export const KEYS_TRACKED = 200;

/** The conduct log: in memory only (it is not ledger state; a restart starts a new rehearsal). */
export class ConductLog {
  private byKey = new Map<string, ConductLine[]>();
  private seq = 0;

  record(line: NewConductLine): ConductLine {
    // The caller's object becomes the line (no copy: one is made per request).
    const full = line as ConductLine;
    full.seq = ++this.seq;
    let lines = this.byKey.get(line.keyId);
    if (lines === undefined) {
      if (this.byKey.size >= KEYS_TRACKED) this.byKey.delete(this.byKey.keys().next().value as string);
      lines = [];
      this.byKey.set(line.keyId, lines);
    }
    lines.push(full);
    if (lines.length > LINES_PER_KEY * 1.2) lines.splice(0, lines.length - LINES_PER_KEY);
    return full;
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  linesOf(keyId: string): readonly ConductLine[] {
    return this.byKey.get(keyId) ?? [];
  }

  clear(): void {
    this.byKey.clear();
    this.seq = 0;
  }
}
