import { Box, Text } from 'ink';
import { fit } from '../text.ts';
import { theme } from '../theme.ts';

export interface Column<Row> {
  header: string;
  /** Cells, or 'content' (as wide as its widest cell in view), or 'rest' (what the other columns leave of the line). */
  width: number | 'content' | 'rest';
  align?: 'left' | 'right';
  cell(row: Row): string;
}

const GAP = 1;

/** Each column's width in cells: fixed, fitted to the rows in view, or the rest of `lineWidth` (at least its header). */
export function columnWidths<Row>(columns: Column<Row>[], rows: Row[], lineWidth: number): number[] {
  const widths = columns.map((c) => (typeof c.width === 'number' ? c.width : c.width === 'content' ? Math.max(c.header.length, ...rows.map((r) => c.cell(r).length)) : 0));
  const used = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1);
  return columns.map((c, i) => (c.width === 'rest' ? Math.max(c.header.length, lineWidth - used) : widths[i]));
}

/**
 * A table whose rows can be selected. @alcalzone/ink-table draws static
 * grids; this one highlights the selected row and keeps one line per row,
 * so a page always takes the same height. Columns sized to their content
 * leave the rest of the line to the one that needs it (a name, a title), so
 * nothing is cut while another column sits half empty.
 */
export function SelectableTable<Row>({ columns, rows, selected, rowKey, width }: { columns: Column<Row>[]; rows: Row[]; selected: number; rowKey(row: Row): string; width: number }) {
  const widths = columnWidths(columns, rows, width);
  const line = (cells: string[]) => cells.map((cell, i) => fit(cell, widths[i], columns[i].align)).join(' '.repeat(GAP));
  return (
    <Box flexDirection="column">
      <Text color={theme.heading} bold>
        {line(columns.map((c) => c.header))}
      </Text>
      {rows.map((row, index) => {
        const text = line(columns.map((c) => c.cell(row)));
        return index === selected ? (
          <Text key={rowKey(row)} color={theme.selectedFg} backgroundColor={theme.selectedBg}>
            {text}
          </Text>
        ) : (
          <Text key={rowKey(row)}>{text}</Text>
        );
      })}
    </Box>
  );
}
