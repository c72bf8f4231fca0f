import { Box, Text } from 'ink';
import type { DetailLine } from '../screens/agent-lines.ts';
import { theme } from '../theme.ts';

const TONE: Record<NonNullable<DetailLine['tone']>, { color?: string; bold?: boolean }> = {
  title: { color: theme.accent, bold: true },
  heading: { color: theme.heading, bold: true },
  muted: { color: theme.muted },
};

/** Prewrapped lines in a window of `rows`, from line `scroll`, with a position line when they overflow. */
export function Lines({ lines, rows, scroll, scrollKeys = '↑↓' }: { lines: DetailLine[]; rows: number; scroll: number; scrollKeys?: string }) {
  const maxScroll = Math.max(0, lines.length - rows);
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      {lines.slice(top, top + rows).map((line, index) => (
        <Text key={top + index} {...(line.tone ? TONE[line.tone] : {})} wrap="truncate-end">
          {line.text || ' '}
        </Text>
      ))}
      {maxScroll > 0 ? <Text color={theme.muted}>{`lines ${top + 1}–${Math.min(lines.length, top + rows)} of ${lines.length} · ${scrollKeys} scroll`}</Text> : null}
    </Box>
  );
}

export const maxScrollOf = (lines: DetailLine[], rows: number) => Math.max(0, lines.length - rows);
