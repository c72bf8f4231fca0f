import { MAXIMUM_RULE, ruleFor, SUM_RULE } from './charge-rules.ts';

/**
 * Reads the customer's settlement against the contract alone: do its parts
 * sum, does it stay within the quote maximum, and does the charge table let
 * this outcome carry a creator fee and execution? Each breach names the field
 * and the rule. A breach is what support escalates, whatever the
 * reproduction says.
 */
type Json = Record<string, unknown>;

export interface Breach {
  field: string;
  cite: string;
  detail: string;
}

export interface AuditInput {
  settlement: Json;
  quote: Json | null;
  outcome: string | null;
  resultPolicy: string | null;
  failure: string | null;
  coverageGaps: string[] | null;
  reads: number | null;
  modelCostAtomic: string | null;
}

const CANONICAL = ['name', 'symbol', 'decimals', 'totalSupply', 'bytecode'];
const amount = (value: unknown): bigint | null => (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value) ? BigInt(value) : null);

export function auditSettlement(input: AuditInput): Breach[] {
  const s = input.settlement;
  const breaches: Breach[] = [];
  const charged = amount(s.chargedAtomic);
  const creator = amount(s.creatorFeeAtomic) ?? 0n;
  const platform = amount(s.platformFeeAtomic) ?? 0n;
  const execution = amount(s.executionChargeAtomic) ?? 0n;
  if (charged === null) return breaches;
  if (charged !== creator + platform + execution) {
    breaches.push({ field: 'settlement.chargedAtomic', cite: SUM_RULE.cite, detail: `${charged} is not ${creator} + ${platform} + ${execution} = ${creator + platform + execution}: ${SUM_RULE.says}` });
  }
  const maximum = amount(input.quote?.maximumBuyerDebitAtomic);
  if (maximum !== null && charged > maximum) breaches.push({ field: 'settlement.chargedAtomic', cite: MAXIMUM_RULE.cite, detail: `${charged} exceeds the quote maximum ${maximum}: ${MAXIMUM_RULE.says}` });
  const outcome = (s.outcome as string | undefined) ?? input.outcome;
  const factsObserved = input.coverageGaps === null ? null : !input.coverageGaps.some((gap) => CANONICAL.includes(gap));
  const rule = ruleFor({ outcome, resultPolicy: input.resultPolicy, failure: input.failure, canonicalHeld: factsObserved === false ? false : null });
  const under = input.resultPolicy ? ` under ${input.resultPolicy}` : ' under complete_only (assumed: no quote or receipt names the policy)';
  if (!rule.fee && creator + platform > 0n) {
    breaches.push({ field: 'settlement.creatorFeeAtomic', cite: rule.cite, detail: `a ${outcome} run${under} is charged ${creator + platform} of creator fee (creator ${creator} + platform ${platform}), but the rule allows: ${rule.says}` });
  }
  if (!rule.execution && execution > 0n) {
    breaches.push({ field: 'settlement.executionChargeAtomic', cite: rule.cite, detail: `a ${outcome} run${under} is charged ${execution} of execution, but the rule allows: ${rule.says}` });
  }
  if (rule.fee && creator + platform > 0n && input.quote) {
    const gross = amount(input.quote.grossCreatorFeeAtomic);
    if (gross !== null && creator + platform > gross) {
      breaches.push({ field: 'settlement.creatorFeeAtomic', cite: 'spec 2.7', detail: `creator ${creator} + platform ${platform} exceeds the quote's grossCreatorFeeAtomic ${gross}` });
    }
  }
  if (rule.execution && input.quote) {
    const cap = amount(input.quote.maxExecutionChargeAtomic);
    if (cap !== null && execution > cap) breaches.push({ field: 'settlement.executionChargeAtomic', cite: 'spec 2.7', detail: `${execution} exceeds the quote's maxExecutionChargeAtomic ${cap}` });
    const rate = amount((input.quote.unitCosts as Json | undefined)?.rpcCallAtomic);
    const model = amount(input.modelCostAtomic);
    if (rate !== null && input.reads !== null && model !== null && execution > rate * BigInt(input.reads) + model) {
      breaches.push({
        field: 'settlement.executionChargeAtomic',
        cite: rule.cite,
        detail: `${execution} exceeds the execution actually used: ${input.reads} reads × ${rate} + model cost ${model} = ${rate * BigInt(input.reads) + model}`,
      });
    }
  }
  return breaches;
}
