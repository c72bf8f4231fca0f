import type { DetailLine, StaticTable } from './screens/agent-lines.ts';

/**
 * What ink-table draws, measured before it draws: a pane that scrolls by
 * line needs a table's height, and a table wider than the pane would wrap
 * and tear its borders (ink-table sizes each column to its longest cell and
 * never wraps or cuts one), so a caller writes its values another way then.
 */

/** A border above and below, the heading, and a rule above every row. */
export const tableHeight = (rowCount: number) => rowCount * 2 + 3;

/** Each column as wide as its longest cell or its heading plus a blank on each side; a border around and between the columns. */
export function tableWidth(table: StaticTable): number {
  const cells = table.columns.map((column) => Math.max(column.key.length, ...table.rows.map((row) => (row[column.key] ?? '').length)) + 2);
  return cells.reduce((sum, cell) => sum + cell, 0) + table.columns.length + 1;
}

/** The table as lines of a scroll pane, one per line ink-table draws; null when it is wider than `width`. */
export function tableLines(table: StaticTable, width: number): DetailLine[] | null {
  if (tableWidth(table) > width) return null;
  return Array.from({ length: tableHeight(table.rows.length) }, (_, row) => ({ text: '', table: { of: table, row } }));
}
