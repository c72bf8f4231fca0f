import type { ConductLine, NewConductLine } from './line.ts';

/** Lines kept per key, oldest dropped first: a storm is minutes of a client's requests, not days. */
export const LINES_PER_KEY = 5000;
/** Keys tracked; past that, the key first seen is dropped first (with its lines). */
export const KEYS_TRACKED = 200;
/** Clock moves remembered (an advance over HTTP, between two lines of any key). */
const CLOCK_MOVES_KEPT = 10_000;

/** One key's lines, and how many of its oldest were dropped to keep the bound. */
export interface KeyLines {
  lines: ConductLine[];
  dropped: number;
  /** The key's own request limit per minute (spec 8), as it stood at its last line. */
  rateLimitPerMinute: number | null;
}

/**
 * The conduct log: in memory only (it is not ledger state; a restart or a reset
 * starts over). Plain lines in a bounded array per key.
 */
export class ConductLog {
  private readonly linesPerKey: number;
  private readonly keysTracked: number;
  private byKey = new Map<string, KeyLines>();
  private moves: number[] = [];
  private seq = 0;

  /** The bounds are the module's constants; tests lower them to reach the edges. */
  constructor(bounds: { linesPerKey?: number; keysTracked?: number } = {}) {
    this.linesPerKey = bounds.linesPerKey ?? LINES_PER_KEY;
    this.keysTracked = bounds.keysTracked ?? KEYS_TRACKED;
  }

  record(line: NewConductLine, rateLimitPerMinute: number | null = null): ConductLine {
    let kept = this.byKey.get(line.keyId);
    if (kept === undefined) {
      if (this.byKey.size >= this.keysTracked) this.byKey.delete(this.byKey.keys().next().value as string);
      kept = { lines: [], dropped: 0, rateLimitPerMinute };
      this.byKey.set(line.keyId, kept);
    }
    if (rateLimitPerMinute !== null) kept.rateLimitPerMinute = rateLimitPerMinute;
    const recorded = { seq: ++this.seq, ...line };
    kept.lines.push(recorded);
    // Dropped a tenth at a time, so a key at its bound does not move its array on every request.
    if (kept.lines.length > this.linesPerKey) {
      const excess = kept.lines.length - this.linesPerKey + Math.floor(this.linesPerKey / 10);
      kept.lines.splice(0, excess);
      kept.dropped += excess;
    }
    return recorded;
  }

  /** Simulated time was moved by hand (POST /sim/clock/advance): a client may look at its run again once. */
  clockMoved(): void {
    this.moves.push(++this.seq);
    if (this.moves.length > CLOCK_MOVES_KEPT) this.moves.splice(0, this.moves.length - CLOCK_MOVES_KEPT);
  }

  /** Whether a clock move came between two positions of the log. */
  movedBetween(fromSeq: number, toSeq: number): boolean {
    return this.moves.some((seq) => seq > fromSeq && seq < toSeq);
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  of(keyId: string): KeyLines {
    return this.byKey.get(keyId) ?? { lines: [], dropped: 0, rateLimitPerMinute: null };
  }

  linesOf(keyId: string): readonly ConductLine[] {
    return this.of(keyId).lines;
  }

  /** Starts over: no lines, no clock moves. */
  clear(): void {
    this.byKey.clear();
    this.moves = [];
    this.seq = 0;
  }
}
