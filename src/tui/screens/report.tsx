import { Box, Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import { clip } from '../text.ts';
import { theme } from '../theme.ts';
import { lostAnswerLines } from '../../client/conduct-report.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';

const MARK = { pass: 'pass', fail: 'FAIL', 'not-exercised': '-' } as const;

/** GET /sim/report for the key in use: one row per rule of conduct, and what decided each failure (docs/drill.md). */
export function ReportScreen() {
  const { report, scroll } = useConsole((s) => s.report);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const { columns, bodyRows } = useViewport();
  const lines = report
    ? report.rules.flatMap((r) => [
        { text: `${MARK[r.verdict].padEnd(5)} ${r.title} (${r.spec.split(' (')[0]})`, color: r.verdict === 'fail' ? theme.error : r.verdict === 'pass' ? undefined : theme.muted },
        ...(r.verdict === 'fail' ? r.evidence.map((e) => ({ text: `      ${e.note}`, color: theme.warn })) : []),
      ]).concat(lostAnswerLines(report.lostAnswers).map((text) => ({ text, color: theme.warn })))
    : [];
  const rows = Math.max(3, bodyRows - 3);
  const maxScroll = Math.max(0, lines.length - rows);
  useCommands('report', { view: { maxScroll, pageRows: rows - 1 } });
  if (!controlAvailable) return <Text color={theme.muted}>The conduct report comes from the control API, which is hidden against a remote service.</Text>;
  if (!report) return <Text color={theme.muted}>Grading this key's requests…</Text>;
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Conduct report </Text>
        <Text color={theme.muted}>{`score ${report.score}${report.lostAnswers.runs.length > 0 ? ` · runs never learned of: ${report.lostAnswers.runs.length}` : ''} · r to regrade`}</Text>
      </Text>
      {lines.slice(top, top + rows).map((line, i) => (
        <Text key={top + i} color={line.color}>
          {clip(line.text, columns - 1)}
        </Text>
      ))}
    </Box>
  );
}
