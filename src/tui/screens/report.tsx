import { Table } from '@alcalzone/ink-table';
import { Box, Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import { wrap } from '../text.ts';
import { tableHeight } from '../static-table.ts';
import { theme } from '../theme.ts';
import { lostAnswerLines } from '../../client/conduct-report.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';

const MARK = { pass: 'pass', fail: 'FAIL', 'not-exercised': '-' } as const;

/** A line under the table: a failed rule's title, its evidence, the answers never learned of. */
interface ReportLine {
  text: string;
  color: string;
}

/** Wrapped whole (ids, paths and amounts in the evidence are never cut); continuation lines keep the indent. */
const wrapped = (text: string, indent: string, width: number, color: string): ReportLine[] => wrap(text, Math.max(10, width - indent.length)).map((line) => ({ text: `${indent}${line}`, color }));

/**
 * GET /sim/report for the key in use (docs/drill.md): the verdicts as a
 * static table (ink-table: no row is selected here), then each failed rule's
 * title and what decided it. The table and the lines under it scroll as one
 * pane that uses every row the screen has.
 */
export function ReportScreen() {
  const { report, scroll } = useConsole((s) => s.report);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const { columns, bodyRows } = useViewport();
  const width = columns - 1;
  const verdicts = report ? report.rules.map((r) => ({ verdict: MARK[r.verdict], rule: r.id, spec: r.spec.split(' (')[0] })) : [];
  const lines: ReportLine[] = report
    ? report.rules
        .filter((r) => r.verdict === 'fail')
        .flatMap((r) => [...wrapped(`${r.title} (${r.spec.split(' (')[0]})`, '      ', width, theme.error).map((l, i) => (i === 0 ? { ...l, text: `FAIL${l.text.slice(4)}` } : l)), ...r.evidence.flatMap((e) => wrapped(e.note, '      ', width, theme.warn))])
        .concat(lostAnswerLines(report.lostAnswers).flatMap((text) => wrapped(text, '', width, theme.warn)))
    : [];
  const tableRows = tableHeight(verdicts.length);
  const contentRows = tableRows + lines.length;
  // The title line; the position line when the pane scrolls.
  const fits = contentRows <= bodyRows - 1;
  const paneRows = fits ? contentRows : Math.max(3, bodyRows - 2);
  const maxScroll = Math.max(0, contentRows - paneRows);
  useCommands('report', { view: { maxScroll, pageRows: paneRows - 1 } });
  if (!controlAvailable) return <Text color={theme.muted}>The conduct report comes from the control API, which is hidden against a remote service.</Text>;
  if (!report) return <Text color={theme.muted}>Grading this key's requests…</Text>;
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Conduct report </Text>
        <Text color={theme.muted}>{`score ${report.score}${report.lostAnswers.runs.length > 0 ? ` · runs never learned of: ${report.lostAnswers.runs.length}` : ''} · r to regrade`}</Text>
      </Text>
      <Box flexDirection="column" height={paneRows} overflow="hidden">
        <Box flexDirection="column" marginTop={-top} flexShrink={0}>
          <Table data={verdicts} columns={['verdict', 'rule', 'spec']} />
          {lines.map((line, i) => (
            <Text key={i} color={line.color}>
              {line.text || ' '}
            </Text>
          ))}
        </Box>
      </Box>
      {fits ? null : <Text color={theme.muted}>{`lines ${top + 1}–${Math.min(contentRows, top + paneRows)} of ${contentRows} · ↑↓ scroll`}</Text>}
    </Box>
  );
}
