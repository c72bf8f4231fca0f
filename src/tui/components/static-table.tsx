import { Table } from '@alcalzone/ink-table';
import { Box } from 'ink';
import type { StaticTable } from '../screens/agent-lines.ts';

/**
 * `count` of the lines ink-table draws for `table`, from its `from`-th: a
 * pane scrolls through a table line by line like through text, so the
 * lines above and below the window are clipped away.
 */
export function TableSlice({ table, from, count }: { table: StaticTable; from: number; count: number }) {
  return (
    <Box flexDirection="column" height={count} overflow="hidden">
      <Box flexDirection="column" marginTop={-from} flexShrink={0}>
        <Table data={table.rows} columns={table.columns.map((column) => ({ key: column.key, align: column.align ?? 'left' }))} />
      </Box>
    </Box>
  );
}
