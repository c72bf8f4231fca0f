import type { SimBalance, SimLedgerEntry } from '../client/index.ts';

type Parts = SimLedgerEntry['after'];
type PartName = keyof Parts;

/**
 * What a history line moves between the parts of a balance, for the lines
 * the simulator writes as parts of one settlement (sim/domain/ledger/ledger.ts): the
 * charge line is the whole movement, and a `hold` or `release` line after it
 * names the share of the reservation that went to pending or back to
 * available. Each is a move out of `reserved`.
 */
const SETTLEMENT_PARTS: Record<string, PartName> = { hold: 'pendingAtomic', release: 'availableAtomic' };

/** A ledger line with the balance right after it, not after the whole movement it belongs to. */
export interface HistoryLine {
  entry: SimLedgerEntry;
  after: Parts;
}

/** The balance before `line` (a hold or release) was applied: its share goes back into reserved. */
function before(line: SimLedgerEntry, after: Parts): Parts {
  const part = SETTLEMENT_PARTS[line.kind];
  const amount = BigInt(line.amountAtomic);
  return { ...after, [part]: (BigInt(after[part]) - amount).toString(), reservedAtomic: (BigInt(after.reservedAtomic) + amount).toString() };
}

/**
 * Each line's balances after that line. The control API's `after` is the
 * balance after the movement a line belongs to, so a settlement's charge,
 * hold and release lines all carry the balance after the release. Walking
 * back from the last line of such a group, each earlier line's balance is
 * the later one's with the later share undone; a line whose `after` differs
 * from the next line's (any other movement) keeps the answer as it is.
 */
export function historyLines(entries: SimLedgerEntry[]): HistoryLine[] {
  const lines: HistoryLine[] = entries.map((entry) => ({ entry, after: entry.after }));
  const nextOfProfile = new Map<string, HistoryLine>();
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i];
    const next = nextOfProfile.get(line.entry.profile);
    const isSameMovement =
      next !== undefined && next.entry.kind in SETTLEMENT_PARTS && next.entry.runId === line.entry.runId && sameParts(next.entry.after, line.entry.after);
    if (isSameMovement) line.after = before(next.entry, next.after);
    nextOfProfile.set(line.entry.profile, line);
  }
  return lines;
}

const sameParts = (a: Parts, b: Parts) => (Object.keys(a) as PartName[]).every((k) => a[k] === b[k]);

/**
 * The amount a bar's full width stands for in one asset: the largest amount
 * a run moved (reserve, charge, hold, release, reconcile) or holds now
 * (reserved, pending, charged). Shares of the deposit would draw a
 * demo-sized reservation (0.4 % of 2 ETH) as a sliver; on this scale the
 * reservation fills the bar and its charge and release split it. With no run
 * yet, the deposit.
 */
export function barScale(entries: SimLedgerEntry[], balance: SimBalance): string {
  const own = entries.filter((e) => e.profile === balance.profile);
  const moved = own.filter((e) => e.kind !== 'deposit').map((e) => BigInt(e.amountAtomic));
  const held = [balance.reservedAtomic, balance.pendingAtomic, balance.chargedAtomic].map((a) => BigInt(a));
  const largest = [...moved, ...held].reduce((a, b) => (b > a ? b : a), 0n);
  return largest > 0n ? largest.toString() : balance.depositedAtomic;
}
