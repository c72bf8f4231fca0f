import { Table } from '@alcalzone/ink-table';
import { Box, Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import { clip } from '../text.ts';
import { theme } from '../theme.ts';
import { lostAnswerLines } from '../../client/conduct-report.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';

const MARK = { pass: 'pass', fail: 'FAIL', 'not-exercised': '-' } as const;

/**
 * GET /sim/report for the key in use (docs/drill.md): the verdicts as a
 * static table (ink-table: no row is selected here), then each failed rule's
 * title and what decided it, scrolled.
 */
export function ReportScreen() {
  const { report, scroll } = useConsole((s) => s.report);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const { columns, bodyRows } = useViewport();
  const verdicts = report ? report.rules.map((r) => ({ verdict: MARK[r.verdict], rule: r.id, spec: r.spec.split(' (')[0] })) : [];
  const lines = report
    ? report.rules
        .filter((r) => r.verdict === 'fail')
        .flatMap((r) => [{ text: `FAIL  ${r.title} (${r.spec.split(' (')[0]})`, color: theme.error }, ...r.evidence.map((e) => ({ text: `      ${e.note}`, color: theme.warn }))])
        .concat(lostAnswerLines(report.lostAnswers).map((text) => ({ text, color: theme.warn })))
    : [];
  // The table takes its rows plus four lines of borders and headings.
  const rows = Math.max(3, bodyRows - 3 - (verdicts.length + 4));
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
      <Table data={verdicts} columns={['verdict', 'rule', 'spec']} />
      {lines.slice(top, top + rows).map((line, i) => (
        <Text key={top + i} color={line.color}>
          {clip(line.text, columns - 1)}
        </Text>
      ))}
    </Box>
  );
}
