import { Box, Text } from 'ink';
import { fit } from '../text.ts';
import { theme } from '../theme.ts';

export interface Column<Row> {
  header: string;
  width: number;
  align?: 'left' | 'right';
  cell(row: Row): string;
}

/**
 * A table whose rows can be selected. @alcalzone/ink-table draws static
 * grids; this one highlights the selected row and keeps one line per row,
 * so a page always takes the same height.
 */
export function SelectableTable<Row>({ columns, rows, selected, rowKey }: { columns: Column<Row>[]; rows: Row[]; selected: number; rowKey(row: Row): string }) {
  const line = (cells: string[]) => cells.join(' ');
  return (
    <Box flexDirection="column">
      <Text color={theme.heading} bold>
        {line(columns.map((c) => fit(c.header, c.width, c.align)))}
      </Text>
      {rows.map((row, index) => {
        const text = line(columns.map((c) => fit(c.cell(row), c.width, c.align)));
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
