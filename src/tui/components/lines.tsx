import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { DetailLine } from '../screens/agent-lines.ts';
import { theme } from '../theme.ts';
import { TableSlice } from './static-table.tsx';

const TONE: Record<NonNullable<DetailLine['tone']>, { color?: string; bold?: boolean }> = {
  title: { color: theme.accent, bold: true },
  heading: { color: theme.heading, bold: true },
  muted: { color: theme.muted },
};

/** The window's lines, each a line of text, or a run of one table's lines drawn as that part of the table. */
function drawn(lines: DetailLine[], top: number): ReactNode[] {
  const out: ReactNode[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at];
    if (line.table) {
      const { of, row } = line.table;
      let count = 1;
      while (lines[at + count]?.table?.of === of) count += 1;
      out.push(<TableSlice key={top + at} table={of} from={row} count={count} />);
      at += count - 1;
      continue;
    }
    out.push(
      <Text key={top + at} {...(line.tone ? TONE[line.tone] : {})} wrap="truncate-end">
        {line.text || ' '}
      </Text>,
    );
  }
  return out;
}

/** Prewrapped lines in a window of `rows`, from line `scroll`, with a position line when they overflow. */
export function Lines({ lines, rows, scroll, scrollKeys = '↑↓' }: { lines: DetailLine[]; rows: number; scroll: number; scrollKeys?: string }) {
  const maxScroll = Math.max(0, lines.length - rows);
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      {drawn(lines.slice(top, top + rows), top)}
      {maxScroll > 0 ? <Text color={theme.muted}>{`lines ${top + 1}–${Math.min(lines.length, top + rows)} of ${lines.length} · ${scrollKeys} scroll`}</Text> : null}
    </Box>
  );
}

export const maxScrollOf = (lines: DetailLine[], rows: number) => Math.max(0, lines.length - rows);
