/**
 * The spec's charge table (3.3) and result policies (3.4) as data: for an
 * outcome under a policy, which rule applies and what it lets be charged.
 * Both the comparison (is the customer's charge allowed?) and the
 * explanation (why was this part charged?) cite these rules by their words.
 */
export interface ChargeRule {
  /** Where the rule is written, e.g. "spec 3.3, row 'Cancelled'". */
  cite: string;
  /** The rule's own words. */
  says: string;
  fee: boolean;
  execution: boolean;
}

export const RULES = {
  complete: { cite: "spec 3.3, row 'Complete report satisfying the result contract'", says: 'creator fee plus execution actually used, up to the quote maximum', fee: true, execution: true },
  partialOrFailed: { cite: "spec 3.3, row 'Partial or failed report'", says: 'nothing; whole reservation returns', fee: false, execution: false },
  confirmedFailure: { cite: "spec 3.3, row 'Confirmed platform or research failure'", says: 'nothing; whole reservation returns', fee: false, execution: false },
  cancelled: { cite: "spec 3.3, row 'Cancelled'", says: 'only execution already incurred, no creator fee', fee: false, execution: true },
  canonicalHeld: {
    cite: "spec 3.4, policy 'canonical_metadata'",
    says: 'a complete or partial report is charged when name, symbol, decimals, total supply and deployed bytecode were observed at one pinned block still canonical at completion',
    fee: true,
    execution: true,
  },
  canonicalLost: {
    cite: "spec 3.4, policy 'canonical_metadata'",
    says: 'not charged: the five facts were not all observed at one pinned block still canonical at completion',
    fee: false,
    execution: false,
  },
} satisfies Record<string, ChargeRule>;

export const PENDING_RULE = { cite: "spec 3.3, row 'Blockchain read without confirmed receipt'", says: 'that part stays held; billing pending' };
export const MAXIMUM_RULE = { cite: 'spec 3.3', says: 'the amount charged never exceeds the quote maximum' };
export const SUM_RULE = { cite: 'spec 2.11 and 2.7', says: 'chargedAtomic is the creator fee plus the platform fee plus the execution charge' };

export interface RuleInput {
  outcome: string | null;
  resultPolicy: string | null;
  /** 'platform' | 'research' when the run's error says so (a confirmed failure). */
  failure: string | null;
  /** For canonical_metadata: did the charge show the facts held? null when unknown. */
  canonicalHeld?: boolean | null;
}

/** The rule that decides a run's charge. */
export function ruleFor(input: RuleInput): ChargeRule {
  if (input.outcome === 'cancelled') return RULES.cancelled;
  if (input.outcome === 'failed') return input.failure ? RULES.confirmedFailure : RULES.partialOrFailed;
  if (input.resultPolicy === 'canonical_metadata' && (input.outcome === 'succeeded' || input.outcome === 'partial')) {
    return input.canonicalHeld === false ? RULES.canonicalLost : RULES.canonicalHeld;
  }
  return input.outcome === 'succeeded' ? RULES.complete : RULES.partialOrFailed;
}
