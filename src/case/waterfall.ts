import { PENDING_RULE, ruleFor, type ChargeRule } from './charge-rules.ts';
import { readEvents } from './event-facts.ts';
import { money, type Profile } from './units.ts';

/**
 * The money of one run, top to bottom: the quote maximum, reserved at
 * acceptance; each charged part with the rule that allowed it; what was held
 * pending and why; what returned. Amounts are BigInt; every line shows human
 * units and the exact atomic string. The checks say whether the parts sum to
 * the total and, with the account's ledger lines, whether the ledger moved
 * the same amounts.
 */
type Json = Record<string, unknown>;

export interface WaterfallInput {
  runId: string;
  profile: Profile | null;
  run: Json | null;
  events: unknown[];
  billing: Json | null;
  /** The quote as the receipt carries it (the terms the charge was computed from). */
  quote: Json | null;
  /** The account's ledger lines of this run, when the control API could be read. */
  ledger: Json[] | null;
}

export interface WaterfallLine {
  label: string;
  atomic: string | null;
  why: string;
  depth: number;
}

export interface Waterfall {
  lines: WaterfallLine[];
  checks: Array<{ what: string; ok: boolean; detail: string }>;
  rule: ChargeRule | null;
}

const CANONICAL = ['name', 'symbol', 'decimals', 'totalSupply', 'bytecode'];
const amount = (value: unknown): bigint | null => (typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value) ? BigInt(value) : null);

export function buildWaterfall(input: WaterfallInput): Waterfall {
  const { quote, billing, run } = input;
  const lines: WaterfallLine[] = [];
  const checks: Waterfall['checks'] = [];
  const line = (label: string, value: bigint | null, why: string, depth = 0) => lines.push({ label, atomic: value === null ? null : value.toString(), why, depth });
  const events = readEvents(input.events);
  const maximum = amount(quote?.maximumBuyerDebitAtomic) ?? amount(input.ledger?.find((l) => l.kind === 'reserve')?.amountAtomic);
  line('quote maximum', maximum, 'maximumBuyerDebitAtomic: the most this run can ever cost (spec 2.7)');
  line('reserved at acceptance', maximum, 'acceptance moves the quote maximum from available to a reservation (spec 4.5, 3.3 row 1)');
  const status = billing?.status as string | undefined;
  const settlement = (billing?.settlement as Json | null | undefined) ?? null;
  const output = run?.output as Json | null | undefined;
  const gaps = Array.isArray(output?.coverageGaps) ? (output!.coverageGaps as string[]) : null;
  const error = run?.error as Json | null | undefined;
  const outcome = (settlement?.outcome as string | undefined) ?? (run?.status as string | undefined) ?? null;
  const policy = (quote?.resultPolicy as string | undefined) ?? null;
  const failure = error && (error.kind === 'platform' || error.kind === 'research') ? String(error.kind) : null;
  const rate = amount((quote?.unitCosts as Json | undefined)?.rpcCallAtomic);
  const model = amount((billing?.modelCost as Json | null | undefined)?.usedAtomic) ?? 0n;
  const authorized = typeof billing?.authorizedRpcCalls === 'number' ? billing.authorizedRpcCalls : 0;
  const unresolved = typeof billing?.unresolvedRpcCalls === 'number' ? billing.unresolvedRpcCalls : 0;
  const returnedReads = events.reconciled && !events.reconciled.confirmed ? (events.unconfirmedRpcCalls ?? 0) : 0;
  const confirmedReads = status === 'pending' ? authorized - unresolved : authorized - returnedReads;

  let rule: ChargeRule | null = null;
  if (status === 'reserved' || !billing) {
    line('charged', 0n, 'nothing yet: the run has not ended, the whole maximum stays reserved (spec 3.3 row 1)');
    return { lines, checks, rule };
  }
  let creator: bigint;
  let platform: bigint;
  let execution: bigint;
  let charged: bigint;
  if (settlement) {
    creator = amount(settlement.creatorFeeAtomic) ?? 0n;
    platform = amount(settlement.platformFeeAtomic) ?? 0n;
    execution = amount(settlement.executionChargeAtomic) ?? 0n;
    charged = amount(settlement.chargedAtomic) ?? 0n;
    rule = ruleFor({ outcome, resultPolicy: policy, failure, canonicalHeld: policy === 'canonical_metadata' ? creator + platform > 0n : null });
  } else {
    // Pending: the settlement is not written yet; what has been charged follows from the quote's terms and the confirmed reads.
    rule = ruleFor({ outcome, resultPolicy: policy, failure, canonicalHeld: gaps ? !gaps.some((g) => CANONICAL.includes(g)) : null });
    const gross = rule.fee ? (amount(quote?.grossCreatorFeeAtomic) ?? 0n) : 0n;
    platform = rule.fee ? (amount(quote?.platformFeeAtomic) ?? 0n) : 0n;
    creator = gross - platform;
    execution = rule.execution && rate !== null ? rate * BigInt(confirmedReads) + model : 0n;
    charged = creator + platform + execution;
  }
  const fee = rule.fee ? `allowed by ${rule.cite}: ${rule.says}` : `not charged: ${rule.cite} says ${rule.says}`;
  line('creator fee (the creator\'s credit)', creator, fee, 1);
  line(`platform fee (feeBps ${String(quote?.feeBps ?? 1000)} of the creator fee)`, platform, fee, 1);
  line('execution', execution, rule.execution ? `allowed by ${rule.cite}: execution actually used, up to maxExecutionChargeAtomic` : `not charged: ${rule.cite} says ${rule.says}`, 1);
  if (rule.execution && rate !== null) {
    line(`reads: ${confirmedReads} confirmed × ${money(rate.toString(), input.profile)}`, rate * BigInt(confirmedReads), 'unitCosts.rpcCallAtomic per blockchain read with a confirmed receipt', 2);
    line('model cost (AI analysis)', model, 'modelCost.usedAtomic, within the quote\'s model cost cap', 2);
    const parts = rate * BigInt(confirmedReads) + model;
    const cap = amount(quote?.maxExecutionChargeAtomic);
    const expected = cap !== null && parts > cap ? cap : parts;
    checks.push({ what: 'execution = reads × rate + model cost (capped at maxExecutionChargeAtomic)', ok: expected === execution, detail: `${expected} vs ${execution}` });
  }
  line('total charged', charged, status === 'pending' ? 'charged so far; the rest of the settlement waits for reconciliation' : 'settlement.chargedAtomic');
  checks.push({ what: 'creator fee + platform fee + execution = total charged', ok: creator + platform + execution === charged, detail: `${creator} + ${platform} + ${execution} = ${creator + platform + execution}, total ${charged}` });
  if (maximum !== null) checks.push({ what: 'total charged ≤ quote maximum (spec 3.3)', ok: charged <= maximum, detail: `${charged} ≤ ${maximum}` });

  const held = status === 'pending' ? (amount(billing.heldAtomic) ?? (rate !== null ? rate * BigInt(unresolved) : 0n)) : 0n;
  line('held pending', held, held > 0n ? `${unresolved} reads have no confirmed receipt: ${PENDING_RULE.cite}, ${PENDING_RULE.says}; POST /sim/runs/{id}/reconcile settles it` : 'nothing held');
  if (events.reconciled) {
    line(`reconciled ${events.reconciled.confirmed ? '(confirmed: charged)' : '(not confirmed: returned)'}`, rate !== null ? rate * BigInt(events.unconfirmedRpcCalls ?? 0) : null, `the held reads' part, reconciled at ${events.reconciled.at}`, 1);
  }
  if (maximum !== null) {
    const released = maximum - charged - held;
    line('released to available', released, 'the rest of the reservation returns to the balance (spec 1, 3.3)');
    checks.push({ what: 'charged + held + released = reserved', ok: charged + held + released === maximum && released >= 0n, detail: `${charged} + ${held} + ${released} = ${charged + held + released}` });
  }
  if (input.ledger) ledgerChecks(input.ledger, { maximum, charged, held, reconciled: events.reconciled !== null }, checks);
  return { lines, checks, rule };
}

/**
 * The ledger's own lines for the run must move what the waterfall says: the
 * reserve line the maximum; the charge line plus a reconcile line (which
 * records what the reconciliation charged) the total; the hold line what was
 * held; the release line plus the held part a reconciliation returned, what
 * went back to available.
 */
function ledgerChecks(ledger: Json[], figures: { maximum: bigint | null; charged: bigint; held: bigint; reconciled: boolean }, checks: Waterfall['checks']): void {
  const sum = (kind: string) => ledger.filter((l) => l.kind === kind).reduce((total, l) => total + (amount(l.amountAtomic) ?? 0n), 0n);
  if (figures.maximum !== null) checks.push({ what: 'ledger: reserve line = quote maximum', ok: sum('reserve') === figures.maximum, detail: `${sum('reserve')}` });
  const charged = sum('charge') + sum('reconcile');
  checks.push({ what: 'ledger: charge line + reconcile line = total charged', ok: charged === figures.charged, detail: `${sum('charge')} + ${sum('reconcile')}` });
  if (!figures.reconciled) checks.push({ what: 'ledger: hold line = held pending', ok: sum('hold') === figures.held, detail: `${sum('hold')}` });
  if (figures.maximum !== null) {
    const returned = figures.reconciled ? sum('hold') - sum('reconcile') : 0n;
    checks.push({ what: 'ledger: release line + held part returned = released', ok: sum('release') + returned === figures.maximum - figures.charged - figures.held, detail: `${sum('release')} + ${returned}` });
  }
}

/**
 * Before a receipt exists (billing pending) no /v1 answer repeats the quote;
 * its terms follow from the export's immutable version (the tariff of the
 * run's profile, spec 2.7's 10% platform share) and the reservation (the
 * ledger's reserve line). A partial run can only pend under
 * canonical_metadata (spec 3.3, 3.4).
 */
export function termsFromVersion(version: Json | null, profile: Profile | null, runStatus: unknown, reserveAtomic: unknown): Json | null {
  const tariff = (version?.tariffs as Json[] | undefined)?.find((t) => t.profile === profile);
  if (!tariff || typeof tariff.creatorFeeAtomic !== 'string') return null;
  const gross = BigInt(tariff.creatorFeeAtomic);
  return {
    ...(typeof reserveAtomic === 'string' ? { maximumBuyerDebitAtomic: reserveAtomic } : {}),
    grossCreatorFeeAtomic: gross.toString(),
    platformFeeAtomic: ((gross * 1000n) / 10000n).toString(),
    feeBps: 1000,
    unitCosts: { rpcCallAtomic: tariff.rpcCallAtomic },
    resultPolicy: runStatus === 'partial' ? 'canonical_metadata' : 'complete_only',
  };
}

/** The waterfall as text: one line per part, human units and the exact atomic string. */
export function waterfallText(input: WaterfallInput, waterfall: Waterfall): string {
  const out = [`Run ${input.runId}: ${String(input.run?.status ?? 'unknown')}, billing ${String(input.billing?.status ?? 'unknown')}, policy ${String(input.quote?.resultPolicy ?? 'unknown')}, paid in ${input.profile ?? 'an unknown asset'}`];
  if (waterfall.rule) out.push(`Rule: ${waterfall.rule.cite}: ${waterfall.rule.says}`);
  out.push('');
  for (const l of waterfall.lines) {
    const indent = '  '.repeat(l.depth);
    out.push(`${indent}${l.label}: ${l.atomic === null ? '(unknown)' : money(l.atomic, input.profile)}`);
    out.push(`${indent}    ${l.why}`);
  }
  out.push('');
  for (const c of waterfall.checks) out.push(`${c.ok ? 'ok  ' : 'FAIL'} ${c.what} (${c.detail})`);
  return `${out.join('\n')}\n`;
}
