import { formatProfileAmount, hasUnits } from '../amount.ts';
import { tableLines } from '../static-table.ts';
import type { DetailLine, StaticTable } from './agent-lines.ts';

/**
 * Amounts that add up, as a static table (the billing's settlement, the
 * receipt's fee split): each part, the amount in the key's asset and the
 * exact atomic string, both right-aligned so the digits line up. Null when
 * the table is wider than `width`: the caller then writes each amount on a
 * line of its own, wrapped, never cut.
 */
export function amountTableLines(parts: Array<{ part: string; atomic: unknown }>, profile: string | null, width: number): DetailLine[] | null {
  // An amount of an unknown asset (or not an amount string) has no units: its atomic string alone is exact.
  const withUnits = parts.every((p) => hasUnits(p.atomic, profile));
  const table: StaticTable = {
    columns: [{ key: 'part' }, ...(withUnits ? [{ key: 'amount', align: 'right' as const }] : []), { key: 'atomic', align: 'right' }],
    rows: parts.map((p) => ({
      part: p.part,
      ...(withUnits ? { amount: formatProfileAmount(p.atomic as string, profile) } : {}),
      atomic: typeof p.atomic === 'string' ? p.atomic : String(p.atomic ?? '—'),
    })),
  };
  return tableLines(table, width);
}
