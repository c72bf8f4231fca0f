import type { ConductLog } from './log.ts';
import { lostAnswers, lostRuns, type LostAnswers, type RunMoney } from './lost-answers.ts';
import { acceptRule, quoteRule } from './rules-money.ts';
import { pollingRule } from './rules-polling.ts';
import { rateLimitRule } from './rules-rate.ts';
import { actionRetryRule, getRetryRule, refusalRule } from './rules-retry.ts';
import { retryAfterRule, unavailableRule } from './rules-waits.ts';
import { EVIDENCE_LIMIT, type ConductRule, type Evidence, type Judgement, type Verdict } from './rule.ts';

/** Every rule, in the order the report lists them (the contract's order). */
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
  keys: string[];
  rules: RuleReport[];
  /** Keys whose oldest lines were dropped (the bound per key): their rules are not judged. */
  truncated: Array<{ keyId: string; dropped: number }>;
  /** Runs the client never learned of, what each cost the account, and the totals. */
  lostAnswers: LostAnswers;
}

/**
 * The graded report: each rule judged per key (a rule fails when it fails for any
 * key, passes when it passes for one and fails for none). A key whose oldest lines
 * were dropped is not judged (a verdict could hang on what is gone); the report says so.
 */
export function gradeConduct(log: ConductLog, moneyOf: (runId: string) => RunMoney, keyId?: string): ConductReport {
  const keys = keyId === undefined ? log.keys() : [keyId];
  const truncated = keys.map((k) => ({ keyId: k, dropped: log.of(k).dropped })).filter((t) => t.dropped > 0);
  const judgedKeys = keys.filter((k) => log.of(k).dropped === 0);
  const rules = CONDUCT_RULES.map((rule) => gradeRule(rule, judgedKeys.map((k) => ({ keyId: k, judgement: rule.judge(log.linesOf(k), contextOf(log, k)) }))));
  const exercised = rules.filter((r) => r.verdict !== 'not-exercised');
  const passed = exercised.filter((r) => r.verdict === 'pass').length;
  return {
    score: exercised.length === 0 ? 100 : Math.round((100 * passed) / exercised.length),
    keys,
    rules,
    truncated,
    lostAnswers: lostAnswers(keys.flatMap((k) => lostRuns(k, log.linesOf(k))), moneyOf, truncated.length === 0),
  };
}

const contextOf = (log: ConductLog, keyId: string) => ({ movedBetween: (a: number, b: number) => log.movedBetween(a, b), rateLimitPerMinute: log.of(keyId).rateLimitPerMinute });

function gradeRule(rule: ConductRule, judgements: Array<{ keyId: string; judgement: Judgement }>): RuleReport {
  const verdict: Verdict = judgements.some((j) => j.judgement.verdict === 'fail') ? 'fail' : judgements.some((j) => j.judgement.verdict === 'pass') ? 'pass' : 'not-exercised';
  const evidence = judgements
    .filter((j) => j.judgement.verdict === verdict)
    .flatMap((j) => j.judgement.evidence.map((e) => ({ keyId: j.keyId, ...e })))
    .slice(0, EVIDENCE_LIMIT);
  return { id: rule.id, title: rule.title, spec: rule.spec, verdict, evidence };
}
