import type { RouteGroup } from '../../chaos/profiles.ts';
import { chaosBit, LineRows, type LineFacts, type LineRoute } from './rows.ts';
import type { ConductLine, NewConductLine } from './line.ts';

/** Lines kept per key, oldest dropped first: a rehearsal is minutes, not days. */
export const LINES_PER_KEY = 5000;
/** Keys tracked; past that, the key first seen is dropped first (with its lines). */
export const KEYS_TRACKED = 200;
/** Distinct targets named before the table is compacted to those the kept lines still name. */
const TARGETS_BEFORE_COMPACTING = 100_000;

/**
 * The conduct log: in memory only (it is not ledger state; a restart starts a
 * new rehearsal). Routes and targets are numbered once, so a line is a row of
 * numbers in its key's array (rows.ts).
 */
export class ConductLog {
  private readonly linesPerKey: number;
  private readonly keysTracked: number;
  private readonly compactFrom: number;
  private byKey = new Map<string, LineRows>();
  private routes: LineRoute[] = [];
  private routeIds = new Map<string, number>();
  private targets: string[] = [];
  private targetIds = new Map<string, number>();
  private compactAt: number;
  private seq = 0;
  private lastKeyId: string | null = null;
  private lastLines: LineRows | undefined = undefined;

  /** The bounds are the module's constants; tests lower them to reach the edges. */
  constructor(bounds: { linesPerKey?: number; keysTracked?: number; targetsBeforeCompacting?: number } = {}) {
    this.linesPerKey = bounds.linesPerKey ?? LINES_PER_KEY;
    this.keysTracked = bounds.keysTracked ?? KEYS_TRACKED;
    this.compactFrom = this.compactAt = bounds.targetsBeforeCompacting ?? TARGETS_BEFORE_COMPACTING;
  }

  /** The number lines of this route carry (kept across a reset: routes do not change). */
  routeId(method: string, route: string, group: RouteGroup): number {
    const name = `${method} ${route}`;
    let id = this.routeIds.get(name);
    if (id === undefined) {
      id = this.routes.length;
      this.routes.push({ method, route, group });
      this.routeIds.set(name, id);
    }
    return id;
  }

  /** The number of a target (a route's pattern, or a keyed hash of a path); it stays the target's until the table is compacted. */
  targetId(target: string): number {
    let id = this.targetIds.get(target);
    if (id === undefined) {
      if (this.targets.length >= this.compactAt) this.compactTargets();
      id = this.targets.length;
      this.targets.push(target);
      this.targetIds.set(target, id);
    }
    return id;
  }

  /** Copies the facts into the key's rows (the caller may fill the same object again). */
  recordFacts(facts: LineFacts): void {
    // A rehearsal is mostly one key's requests in a row: its rows are at hand without a lookup.
    let lines = facts.keyId === this.lastKeyId ? this.lastLines : this.byKey.get(facts.keyId);
    if (lines === undefined) {
      if (this.byKey.size >= this.keysTracked) this.byKey.delete(this.byKey.keys().next().value as string);
      lines = new LineRows(this.linesPerKey);
      this.byKey.set(facts.keyId, lines);
    }
    this.lastKeyId = facts.keyId;
    this.lastLines = lines;
    lines.push(++this.seq, facts);
  }

  /** A line given whole (tests, tools): the same row as a recorded one. */
  record(line: NewConductLine): void {
    const extras = { bodyHash: line.bodyHash, idempotencyKeyHash: line.idempotencyKeyHash, reservedAtomic: line.reservedAtomic, retryAfterSeconds: line.retryAfterSeconds };
    this.recordFacts({
      keyId: line.keyId,
      routeId: this.routeId(line.method, line.route, line.group),
      atMs: Date.parse(line.at),
      realMs: line.realMs,
      status: line.status ?? -1,
      answered: line.answered,
      chaosBits: line.chaos.reduce((bits, kind) => bits | chaosBit(kind), 0),
      targetId: this.targetId(line.target),
      targetHashed: false,
      targetHigh: 0,
      targetLow: 0,
      runTerminal: line.runTerminal === undefined ? -1 : line.runTerminal ? 1 : 0,
      extras: Object.values(extras).some((v) => v !== undefined) ? extras : null,
    });
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  linesOf(keyId: string): readonly ConductLine[] {
    return this.byKey.get(keyId)?.lines(keyId, this.routes, this.targets) ?? [];
  }

  /** A new rehearsal: no lines. (Numbers already given to routes and targets stay valid: the recorder holds its routes'.) */
  clear(): void {
    this.byKey.clear();
    this.lastKeyId = null;
    this.lastLines = undefined;
    this.seq = 0;
  }

  /** Keeps only the targets kept lines name (a client that read many distinct paths over a long rehearsal). */
  private compactTargets(): void {
    const inUse = new Set<number>();
    for (const lines of this.byKey.values()) lines.targetsInUse(inUse);
    const renumbered = new Map<number, number>();
    const targets: string[] = [];
    for (const old of [...inUse].sort((a, b) => a - b)) {
      renumbered.set(old, targets.length);
      targets.push(this.targets[old]);
    }
    for (const lines of this.byKey.values()) lines.remapTargets((id) => renumbered.get(id)!);
    this.targets = targets;
    this.targetIds = new Map(targets.map((t, i) => [t, i]));
    // When most targets are still named, the next compaction waits until the table has doubled.
    this.compactAt = Math.max(this.compactFrom, 2 * targets.length);
  }
}
