import type { ConductLine } from './line.ts';

/** One line of evidence: what was seen, and the request lines that show it. */
export interface Evidence {
  note: string;
  lines: ConductLine[];
}

export type Verdict = 'pass' | 'fail' | 'not-exercised';

export interface Judgement {
  verdict: Verdict;
  evidence: Evidence[];
}

/** What a rule may know beside one key's lines. */
export interface KeyContext {
  /** Whether simulated time was moved by hand between two positions of the log. */
  movedBetween(fromSeq: number, toSeq: number): boolean;
  /** The key's request limit per minute (spec 8), when known. */
  rateLimitPerMinute: number | null;
}

/** A rule of conduct, with the spec section it comes from (docs/drill.md, The rules). */
export interface ConductRule {
  id: string;
  title: string;
  /** The spec sections the rule cites ("4.3, part 7"). */
  spec: string;
  /** Judges one key's lines, oldest first. */
  judge(lines: readonly ConductLine[], context: KeyContext): Judgement;
}

/** At most this many evidence items per rule and key: enough to act on, short enough to read. */
export const EVIDENCE_LIMIT = 8;

/**
 * No usable answer, and part 7 leaves the wait to the caller's backoff: the
 * connection ended first, or a 5xx other than 503. (A 429's wait is Retry-After's
 * rule, a 503's is the no-tight-loop rule.)
 */
export const unanswered = (line: ConductLine): boolean => !line.answered || (line.status !== null && line.status >= 500 && line.status !== 503);

/** Any failure a later attempt may turn into an answer: no answer, 429 or 5xx. */
export const failed = (line: ConductLine): boolean => !line.answered || line.status === 429 || (line.status !== null && line.status >= 500);

/** The same request again: method, route and the same path and query (by their keyed hash). */
export const sameRequest = (a: ConductLine, b: ConductLine): boolean => a.method === b.method && a.route === b.route && a.target === b.target;

/** The first line after index `i` that repeats line i's request. */
export function nextSame(lines: readonly ConductLine[], i: number): ConductLine | undefined {
  for (let j = i + 1; j < lines.length; j += 1) if (sameRequest(lines[i], lines[j])) return lines[j];
  return undefined;
}

/** A verdict from what was found: failures decide, then whether anything exercised the rule. */
export function judged(failures: Evidence[], passes: Evidence[]): Judgement {
  if (failures.length > 0) return { verdict: 'fail', evidence: failures.slice(0, EVIDENCE_LIMIT) };
  if (passes.length === 0) return { verdict: 'not-exercised', evidence: [] };
  return { verdict: 'pass', evidence: passes.slice(0, EVIDENCE_LIMIT) };
}

export const gapMs = (from: ConductLine, to: ConductLine): number => to.realMs - from.realMs;

/** Describes a line in a note: "POST /v1/custody/quotes/:id/accept → 202, never delivered (lost-after-commit)". */
export function describe(line: ConductLine): string {
  const status = line.status === null ? 'no answer' : String(line.status);
  const chaos = line.chaos.length > 0 ? ` (${line.chaos.join(', ')})` : '';
  return `${line.method} ${line.route} → ${status}${line.answered || line.status === null ? '' : ', never delivered'}${chaos}`;
}
