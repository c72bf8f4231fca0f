import type { ConductLine } from './line.ts';
import type { ConductLog } from './log.ts';
import { acceptRule, doubleReservedAtomic, quoteRule } from './rules-money.ts';
import { pollingRule } from './rules-polling.ts';
import { actionRetryRule, getRetryRule, rateLimitRule, refusalRule, retryAfterRule, unavailableRule } from './rules-retry.ts';
import { EVIDENCE_LIMIT, type ConductRule, type Evidence, type Verdict } from './rule.ts';

/** Every rule, in the order the report lists them (the order). */
export const CONDUCT_RULES: readonly ConductRule[] = [
  quoteRule,
  acceptRule,
  retryAfterRule,
  unavailableRule,
  getRetryRule,
  pollingRule,
  refusalRule,
  actionRetryRule,
  rateLimitRule,
];

export interface RuleReport {
  id: string;
  title: string;
  spec: string;
  verdict: Verdict;
  evidence: Array<Evidence & { keyId: string }>;
}

export interface ConductReport {
  /** Rules passed out of rules exercised, as a whole percentage; 100 when nothing was exercised. */
  score: number;
  /** Atomic units reserved twice because an accept was repeated under a new idempotency key (4.4), as an integer string. */
  doubleReservedAtomic: string;
  keys: string[];
  rules: RuleReport[];
}

/**
 * The graded report: each rule judged per key (a rule fails when it fails for
 * any key, passes when it passes for one and fails for none).
 */
export function gradeConduct(log: ConductLog, keyId?: string): ConductReport {
  const keys = keyId === undefined ? log.keys() : [keyId];
  const linesByKey = keys.map((k) => [k, log.linesOf(k)] as const);
  const rules = CONDUCT_RULES.map((rule) => gradeRule(rule, linesByKey));
  const exercised = rules.filter((r) => r.verdict !== 'not-exercised');
  const passed = exercised.filter((r) => r.verdict === 'pass').length;
  const doubled = linesByKey.reduce((sum, [, lines]) => sum + doubleReservedAtomic(lines), 0n);
  return {
    score: exercised.length === 0 ? 100 : Math.round((100 * passed) / exercised.length),
    doubleReservedAtomic: doubled.toString(),
    keys,
    rules,
  };
}

function gradeRule(rule: ConductRule, linesByKey: ReadonlyArray<readonly [string, readonly ConductLine[]]>): RuleReport {
  const judgements = linesByKey.map(([key, lines]) => ({ key, ...rule.judge(lines) }));
  const verdict: Verdict = judgements.some((j) => j.verdict === 'fail') ? 'fail' : judgements.some((j) => j.verdict === 'pass') ? 'pass' : 'not-exercised';
  const evidence = judgements
    .filter((j) => j.verdict === verdict)
    .flatMap((j) => j.evidence.map((e) => ({ keyId: j.key, ...e })))
    .slice(0, EVIDENCE_LIMIT);
  return { id: rule.id, title: rule.title, spec: rule.spec, verdict, evidence };
}
