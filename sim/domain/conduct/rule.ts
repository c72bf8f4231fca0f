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

/** A rule of conduct, with the spec section it comes from. */
export interface ConductRule {
  id: string;
  title: string;
  /** The spec sections the rule cites ("4.3, part 7"). */
  spec: string;
  /** Judges one key's lines, oldest first. */
  judge(lines: readonly ConductLine[]): Judgement;
}

/** At most this many evidence items per rule and key: enough to act on, short enough to read. */
export const EVIDENCE_LIMIT = 8;

/** The client never got a usable answer: what part 7 lets it retry (network failure, 429, 5xx but 503). */
export const failedRetryably = (line: ConductLine): boolean =>
  !line.answered || line.status === 429 || (line.status !== null && line.status >= 500 && line.status !== 503);

/** The same request again: method, route and the same path and query (by their keyed hash). */
export const sameRequest = (a: ConductLine, b: ConductLine): boolean => a.method === b.method && a.route === b.route && a.target === b.target;

/** The first line after index `i` that repeats line i's request. */
export function nextSame(lines: readonly ConductLine[], i: number): ConductLine | undefined {
  for (let j = i + 1; j < lines.length; j += 1) if (sameRequest(lines[i], lines[j])) return lines[j];
  return undefined;
}

/** A verdict from what was found: failures decide, then whether anything exercised the rule. */
export function judged(exercised: boolean, failures: Evidence[], passes: Evidence[]): Judgement {
  if (failures.length > 0) return { verdict: 'fail', evidence: failures.slice(0, EVIDENCE_LIMIT) };
  if (!exercised) return { verdict: 'not-exercised', evidence: [] };
  return { verdict: 'pass', evidence: passes.slice(0, EVIDENCE_LIMIT) };
}

export const gapMs = (from: ConductLine, to: ConductLine): number => to.realMs - from.realMs;

/** Describes a line in a note: "POST /v1/custody/quotes/:id/accept → 202 (lost-after-commit)". */
export function describe(line: ConductLine): string {
  const status = line.status === null ? 'no answer' : String(line.status);
  const chaos = line.chaos.length > 0 ? ` (${line.chaos.join(', ')})` : '';
  return `${line.method} ${line.route} → ${status}${line.answered ? '' : ', never delivered'}${chaos}`;
}
