import { compareAnswers, type Difference } from './compare.ts';
import { tagText, type Tag } from './decisions.ts';
import type { ProbeDef, ProbeKind } from './probes/index.ts';
import { isSkip, type SideOutcome } from './side.ts';
import { dateOf, type Exchange } from './wire.ts';

export type Verdict = 'same' | 'differs' | 'could not be compared';

/** A difference as the report shows it: both values, and who answers for it in words. */
export interface ReportedDifference extends Difference {
  stated: boolean;
  /** "stated by the spec (part N)" or "left open by the spec: the simulator's choice (docs/decisions.md, entry X ...)". */
  by: string;
}

export interface ProbeResult {
  id: string;
  title: string;
  kind: ProbeKind;
  verdict: Verdict;
  /** Why it could not be compared. */
  reason?: string;
  /** The status each side answered (0: no answer; absent: not sent). */
  service?: number;
  simulator?: number;
  differences: ReportedDifference[];
}

const isStated = (tag: Tag) => 'stated' in tag;

const answerLine = (outcome: SideOutcome) => (isSkip(outcome) ? outcome.skip : (outcome as Exchange).failure ?? `answered ${(outcome as Exchange).status}`);

/** One probe's verdict from its two outcomes. */
export function judge(probe: ProbeDef, service: SideOutcome, simulator: SideOutcome): ProbeResult {
  const base = { id: probe.id, title: probe.title, kind: probe.kind, differences: [] as ReportedDifference[] };
  const statuses = { ...(isSkip(service) ? {} : { service: (service as Exchange).status }), ...(isSkip(simulator) ? {} : { simulator: (simulator as Exchange).status }) };
  if (isSkip(service) || isSkip(simulator)) {
    const reason = isSkip(service) && isSkip(simulator) && service.skip === simulator.skip ? service.skip : `service: ${answerLine(service)}; simulator: ${answerLine(simulator)}`;
    return { ...base, ...statuses, verdict: 'could not be compared', reason };
  }
  const [a, b] = [service as Exchange, simulator as Exchange];
  if (a.failure || b.failure) return { ...base, ...statuses, verdict: 'could not be compared', reason: [a.failure, b.failure].filter(Boolean).join('; ') };
  // A rate refusal says nothing about the answer the probe asks for.
  const limited = [a.status === 429 ? 'the service' : '', b.status === 429 ? 'the simulator' : ''].filter(Boolean);
  if (limited.length > 0) {
    const never = probe.kind === 'quote creation' ? ' (a quote creation is never retried)' : ' (Retry-After waited out twice)';
    return { ...base, ...statuses, verdict: 'could not be compared', reason: `rate limited (429) by ${limited.join(' and ')}${never}` };
  }
  const differences = compareAnswers(probe, a, b).map((d) => ({ ...d, stated: isStated(d.tag), by: tagText(d.tag) }));
  return { ...base, ...statuses, verdict: differences.length === 0 ? 'same' : 'differs', differences };
}

/**
 * How far a side's clock (its Date headers) is from this machine's, in
 * seconds: the median over its answers of Date minus the middle of the
 * exchange. Date has whole seconds, so the figure is good to about ±1 s.
 */
export function skewOf(outcomes: Iterable<SideOutcome>): number | null {
  const skews: number[] = [];
  for (const o of outcomes) {
    if (isSkip(o)) continue;
    const date = dateOf(o as Exchange);
    if (date !== null) skews.push((date - ((o as Exchange).sentAt + (o as Exchange).receivedAt) / 2) / 1000);
  }
  if (skews.length === 0) return null;
  skews.sort((x, y) => x - y);
  return Math.round(skews[Math.floor(skews.length / 2)] * 10) / 10;
}
