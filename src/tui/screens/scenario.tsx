import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { Lines, maxScrollOf } from '../components/lines.tsx';
import { DEFAULT_SCENARIO_FILE } from '../state/scenario.ts';
import { useConsole } from '../state/context.tsx';
import { clip } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import { scenarioStepLines } from './detail-lines.ts';
import { windowOf } from './monitors.tsx';

/**
 * Screen 0: a scenario file stepped on a fresh simulator of its own: each
 * step's request, answer and checks, and the balances after it.
 */
export function ScenarioScreen() {
  const scenario = useConsole((s) => s.scenario);
  const { columns, bodyRows } = useViewport();
  const listRows = Math.min(5, Math.max(2, scenario.steps.length));
  const detailRows = Math.max(3, bodyRows - 3 - listRows);
  const step = scenario.steps[scenario.selected];
  const lines = useMemo(() => (step ? scenarioStepLines(step, columns - 2) : []), [step, columns]);
  useCommands('scenario', { view: { maxScroll: maxScrollOf(lines, detailRows), pageRows: detailRows - 1 } });

  if (!scenario.file) {
    return (
      <Box flexDirection="column">
        <Text bold>Scenario stepping</Text>
        <Text color={theme.muted}>Press o to open a scenario file (default {DEFAULT_SCENARIO_FILE}).</Text>
        <Text color={theme.muted}>It runs on a fresh simulator on a frozen clock, one step per n, as `npm run scenario` would, never on this console's simulator.</Text>
      </Box>
    );
  }
  if (!scenario.name) return <Text color={theme.muted}>{scenario.isBusy ? `Opening ${scenario.file}…` : `Could not open ${scenario.file}: see the error line.`}</Text>;
  const failed = scenario.steps.filter((s) => s.error !== null || s.checks.some((c) => !c.ok)).length;
  const { top, visible } = windowOf(scenario.steps, scenario.selected, listRows);
  const done = scenario.next >= scenario.total;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{scenario.name} </Text>
        <Text color={theme.muted}>
          · {scenario.steps.length}/{scenario.total} steps · {failed === 0 ? 'all as expected' : `${failed} failed`}
          {done ? ' · done' : scenario.isBusy ? ' · running…' : ` · n runs step ${scenario.next + 1}`}
        </Text>
      </Text>
      <Text color={theme.muted} wrap="truncate-end">
        {scenario.file} · {scenario.provisioned.length} provisioned: {scenario.provisioned.map((p) => p.trim()).join('; ')}
      </Text>
      {visible.map((s, i) => {
        const ok = s.error === null && s.checks.every((c) => c.ok);
        const isSelected = top + i === scenario.selected;
        const what = s.request ? `${s.request.method} ${s.request.path}` : s.checks.map((c) => c.what).join(', ');
        return (
          <Text key={s.index} inverse={isSelected} color={ok ? undefined : theme.error}>
            {clip(`${ok ? '✓' : '✗'} ${String(s.index + 1).padStart(2)} ${s.action.padEnd(8)} ${s.status ?? '   '} ${s.name ?? what}`, columns - 1)}
          </Text>
        );
      })}
      {scenario.steps.length === 0 ? <Text color={theme.muted}>No step run yet: press n.</Text> : null}
      <Lines lines={lines} rows={detailRows} scroll={scenario.scroll} scrollKeys="pgdn pgup" />
    </Box>
  );
}
