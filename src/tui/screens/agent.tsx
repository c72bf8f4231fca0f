import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import { agentDetailLines, type DetailLine } from './agent-lines.ts';

const TONE: Record<NonNullable<DetailLine['tone']>, { color?: string; bold?: boolean }> = {
  title: { color: theme.accent, bold: true },
  heading: { color: theme.heading, bold: true },
  muted: { color: theme.muted },
};

/** One agent's detail (spec 2.5), scrolled by line. */
export function AgentScreen() {
  const agent = useConsole((s) => s.agent);
  const { columns, bodyRows } = useViewport();
  // One row for the position line under the detail.
  const viewport = Math.max(5, bodyRows - 1);
  const lines = useMemo(() => (agent.detail ? agentDetailLines(agent.detail, columns - 2) : []), [agent.detail, columns]);
  const maxScroll = Math.max(0, lines.length - viewport);
  useCommands('agent', { view: { maxScroll, pageRows: viewport - 1 } });

  if (!agent.detail) return <Text color={theme.muted}>{agent.isLoading ? 'Reading the agent…' : 'No detail to show. Press esc to go back.'}</Text>;
  const top = Math.min(agent.scroll, maxScroll);
  return (
    <Box flexDirection="column">
      {lines.slice(top, top + viewport).map((line, index) => (
        <Text key={top + index} {...(line.tone ? TONE[line.tone] : {})}>
          {line.text || ' '}
        </Text>
      ))}
      <Text color={theme.muted}>
        {maxScroll > 0 ? `lines ${top + 1}–${Math.min(lines.length, top + viewport)} of ${lines.length}` : `${lines.length} lines`}
      </Text>
    </Box>
  );
}
