import { runScenario, type ScenarioResult } from '../scenario/runner.ts';
import type { Scenario } from '../scenario/format.ts';
import { importCase } from './import.ts';
import { auditSettlement, type Breach } from './audit.ts';
import { compareSides, idMapper, type FieldRow } from './compare.ts';
import type { CaseDocument } from './documents.ts';
import type { CaseFacts } from './facts.ts';
import { READ_STEPS } from './reproduce.ts';

/**
 * `case check`: import the documents, run the reproduction on a fresh
 * simulator, and set the customer's billing, settlement and receipt beside
 * the reproduction's. They agree when every field is equal and the
 * customer's settlement breaks no rule of the contract.
 */
type Json = Record<string, unknown>;

export interface CaseCheck {
  facts: CaseFacts;
  scenario: Scenario;
  assumptions: string[];
  result: ScenarioResult;
  rows: FieldRow[];
  breaches: Breach[];
  /** Steps of the reproduction that did not go as the documents said (a refused quote, an unexpected status). */
  problems: string[];
  /** What the reproduction answered (null where it answered no 200). */
  reproduction: { run: Json | null; billing: Json | null; receipt: Json | null };
  agree: boolean;
}

export function auditFacts(facts: CaseFacts): Breach[] {
  const settlement = (facts.billing?.settlement ?? facts.receipt?.settlement) as Json | null | undefined;
  if (!settlement) return [];
  const billing = facts.billing;
  const modelCost = (billing?.modelCost as Json | null | undefined)?.usedAtomic ?? facts.events.modelCostAtomic;
  return auditSettlement({
    settlement,
    quote: facts.quote,
    outcome: facts.outcome,
    resultPolicy: facts.resultPolicy,
    failure: facts.failure,
    coverageGaps: facts.coverageGaps,
    reads: typeof billing?.authorizedRpcCalls === 'number' ? billing.authorizedRpcCalls : facts.rpcUsed,
    modelCostAtomic: typeof modelCost === 'string' ? modelCost : null,
  });
}

export async function checkCase(documents: CaseDocument[], file = '(reproduction)'): Promise<CaseCheck> {
  const { facts, scenario, assumptions } = importCase(documents);
  const result = await runScenario(scenario, file);
  const bodyOf = (name: string) => {
    const step = result.steps.find((s) => s.name === name);
    return step && step.status === 200 ? (step.body as Json) : null;
  };
  const billing = bodyOf(READ_STEPS.billing);
  const receipt = bodyOf(READ_STEPS.receipt);
  const run = (bodyOf(READ_STEPS.run)?.run as Json | undefined) ?? null;
  const theirQuote = facts.quote ?? {};
  const mapIds = idMapper([
    [facts.runId, run?.id],
    [theirQuote.id ?? facts.billing?.quoteId, billing?.quoteId],
    [facts.billing?.reservationId ?? (facts.receipt?.reservation as Json | undefined)?.id, billing?.reservationId],
    [theirQuote.contractHash, (receipt?.quote as Json | undefined)?.contractHash],
  ]);
  const breaches = auditFacts(facts);
  const rows = compareSides({ billing: facts.billing, receipt: facts.receipt }, { billing, receipt }, mapIds, breaches);
  const problems = result.steps
    .filter((s) => s.error || s.checks.some((c) => !c.ok))
    .map((s) => {
      const refusal = (s.body as { error?: { code?: string; message?: string } } | null)?.error;
      const why = s.error ?? s.checks.filter((c) => !c.ok).map((c) => `${c.what}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(c.actual)}`).join('; ');
      return `step ${s.index + 1} (${s.name ?? s.action}): ${why}${refusal ? ` (${refusal.code}: ${refusal.message})` : ''}`;
    });
  const agree = problems.length === 0 && breaches.length === 0 && rows.every((r) => r.equal);
  return { facts, scenario, assumptions, result, rows, breaches, problems, reproduction: { run, billing, receipt }, agree };
}
