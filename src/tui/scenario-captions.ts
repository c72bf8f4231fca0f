import { formatProfileAmount } from './amount.ts';
import type { AccountBalances, StepView } from './scenario-stepper.ts';

/**
 * What presenter mode says about a step: the scenario's own name for it, or
 * failing that what the step did, in the words the transcript uses.
 */
export function stepCaption(step: StepView): string {
  if (step.name) return step.name;
  if (step.action === 'check') return `check ${step.checks.map((c) => c.what).join(', ') || 'balances'}`;
  if (step.action === 'advance') {
    const body = (step.request?.body ?? {}) as { seconds?: number; to?: string; next?: boolean };
    return body.seconds !== undefined ? `advance the clock ${body.seconds} s` : body.to ? `advance the clock to ${body.to}` : 'advance the clock to the next event';
  }
  return step.request ? `${step.request.method} ${step.request.path}` : step.action;
}

const BALANCE_FIELDS = [
  ['availableAtomic', 'available'],
  ['reservedAtomic', 'reserved'],
  ['pendingAtomic', 'pending'],
  ['chargedAtomic', 'charged'],
] as const;

/**
 * How each balance moved over a step (after it, against after the one
 * before; before the first step, against nothing moved): one line per
 * account and asset that changed, e.g. "acme ETH: available −0.00816 ETH,
 * reserved +0.00816 ETH". BigInt throughout (spec 2.1: atomic strings).
 */
export function balanceMoves(before: AccountBalances[] | null, after: AccountBalances[]): string[] {
  const lines: string[] = [];
  for (const account of after) {
    for (const balance of account.balances) {
      const previous = before?.find((a) => a.accountId === account.accountId)?.balances.find((b) => b.profile === balance.profile);
      if (!previous) continue;
      const moved = BALANCE_FIELDS.flatMap(([field, label]) => {
        const delta = BigInt(balance[field]) - BigInt(previous[field]);
        if (delta === 0n) return [];
        const sign = delta > 0n ? '+' : '−';
        return [`${label} ${sign}${formatProfileAmount((delta > 0n ? delta : -delta).toString(), balance.profile)}`];
      });
      if (moved.length) lines.push(`${account.name} ${balance.profile}: ${moved.join(', ')}`);
    }
  }
  return lines;
}

/**
 * What the scenario charged in all, for presenter mode's last frame: each
 * account and asset with a charged balance after the last step, in units
 * and the exact atomic string.
 */
export function chargedLines(after: AccountBalances[]): string[] {
  return after.flatMap((account) =>
    account.balances.filter((b) => BigInt(b.chargedAtomic) > 0n).map((b) => `${account.name} ${b.profile}: charged ${formatProfileAmount(b.chargedAtomic, b.profile)} (${b.chargedAtomic} atomic)`),
  );
}
