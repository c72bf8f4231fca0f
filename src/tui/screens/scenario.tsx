import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { Lines, maxScrollOf } from '../components/lines.tsx';
import { balanceMoves, chargedLines, stepCaption } from '../scenario-captions.ts';
import { useConsole } from '../state/context.tsx';
import type { ScenarioState } from '../state/scenario.ts';
import { clip, wrap } from '../text.ts';
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
  const step = scenario.steps[scenario.selected];
  const moves = useMemo(() => (step ? balanceMoves(scenario.steps[scenario.selected - 1]?.balances ?? null, step.balances) : []), [step, scenario.steps, scenario.selected]);
  const done = scenario.next >= scenario.total;
  // Presenter mode's caption and the balance moves (at the end, what was charged) take the detail's room, not the list's.
  const caption = scenario.presenter && step ? captionLines(scenario, stepCaption(step), done ? chargedLines(step.balances) : moves.slice(0, 3), columns - 1) : [];
  const fileLines = scenario.name ? wrap(`${scenario.file} · ${scenario.provisioned.length} provisioned: ${scenario.provisioned.map((p) => p.trim()).join('; ')}`, columns - 1) : [];
  const listRows = Math.min(scenario.presenter ? 3 : 5, Math.max(1, scenario.steps.length));
  // The name line, the file lines, the list, the caption, and the detail's position line.
  const detailRows = Math.max(3, bodyRows - 1 - fileLines.length - listRows - caption.length - 1);
  const lines = useMemo(() => (step ? scenarioStepLines(step, columns - 2) : []), [step, columns]);
  useCommands('scenario', { view: { maxScroll: maxScrollOf(lines, detailRows), pageRows: detailRows - 1 } });
  useCommands('presenter', { view: { maxScroll: maxScrollOf(lines, detailRows), pageRows: detailRows - 1 } });
  useCommands('scenario-picker');

  if (scenario.picker) return <ScenarioPicker picker={scenario.picker} rows={bodyRows - 2} columns={columns} />;
  if (!scenario.file) {
    return (
      <Box flexDirection="column">
        <Text bold>Scenario stepping</Text>
        <Text color={theme.muted}>Press o to open a scenario file: pick a shipped one or one opened before, or type a path (t).</Text>
        <Text color={theme.muted}>It runs on a fresh simulator on a frozen clock, one step per n, as `npm run scenario` would, never on this console's simulator.</Text>
      </Box>
    );
  }
  if (!scenario.name) return <Text color={theme.muted}>{scenario.isBusy ? `Opening ${scenario.file}…` : `Could not open ${scenario.file}: see the error line.`}</Text>;
  const failed = scenario.steps.filter((s) => s.error !== null || s.checks.some((c) => !c.ok)).length;
  const { top, visible } = windowOf(scenario.steps, scenario.selected, listRows);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{scenario.name} </Text>
        <Text color={theme.muted}>
          · {scenario.steps.length}/{scenario.total} steps · {failed === 0 ? 'all as expected' : `${failed} failed`}
          {done ? ' · done' : scenario.isBusy ? ' · running…' : ` · n runs step ${scenario.next + 1}`}
        </Text>
      </Text>
      {fileLines.map((line, i) => (
        <Text key={`file-${i}`} color={theme.muted}>
          {line}
        </Text>
      ))}
      {visible.map((s, i) => {
        const ok = s.error === null && s.checks.every((c) => c.ok);
        const isSelected = top + i === scenario.selected;
        // The list names a request by its route with ids abbreviated (the step's detail below has them whole), so the line is not cut inside an id.
        const prefix = `${ok ? '✓' : '✗'} ${String(s.index + 1).padStart(2)} ${s.action.padEnd(8)} ${s.status ?? '   '} `;
        const checks = s.checks.map((c) => c.what).join(', ');
        // A check step too long for its line is counted here and listed whole in the detail below.
        const what = s.request ? `${s.request.method} ${abbreviateIds(s.request.path)}` : prefix.length + checks.length < columns ? checks : `${s.checks.length} checks (listed below when selected)`;
        return (
          <Text key={s.index} inverse={isSelected} color={ok ? undefined : theme.error}>
            {clip(`${prefix}${s.name ?? what}`, columns - 1)}
          </Text>
        );
      })}
      {scenario.steps.length === 0 ? <Text color={theme.muted}>{scenario.presenter ? 'Presenting: the first step runs shortly (space pauses).' : 'No step run yet: press n.'}</Text> : null}
      {caption.map((line, i) => (
        <Text key={`caption-${i}`} {...CAPTION_TONE[line.tone]}>
          {line.text}
        </Text>
      ))}
      <Lines lines={lines} rows={detailRows} scroll={scenario.scroll} scrollKeys="pgdn pgup" />
    </Box>
  );
}

const UUID = /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const abbreviateIds = (path: string) => path.replace(UUID, '$1…');

const CAPTION_TONE = { title: { color: theme.accent, bold: true }, state: { color: theme.muted }, money: { color: theme.ok } } as const;

/**
 * Presenter mode: what the step just shown was, in the scenario's words, and
 * how the money moved (after the last step, what the scenario charged),
 * wrapped so no amount or id is cut.
 */
function captionLines(scenario: ScenarioState, caption: string, money: string[], width: number): Array<{ text: string; tone: keyof typeof CAPTION_TONE }> {
  const { presenter, selected, total, next } = scenario;
  const done = next >= total;
  const state = done ? 'the end' : presenter?.isPaused ? 'paused · space resumes' : `next in ${Math.round((presenter?.paceMs ?? 0) / 1000)} s · space pauses`;
  return [
    ...wrap(`▶ Step ${selected + 1}/${total}: ${caption}`, width).map((text) => ({ text, tone: 'title' as const })),
    { text: `${money.length || done ? '' : 'no balance moved · '}${state}${done && money.length === 0 ? ' · nothing charged' : ''}`, tone: 'state' as const },
    ...money.flatMap((line) => wrap(line, width - 2).map((text) => ({ text: `  ${text}`, tone: 'money' as const }))),
  ];
}

/** The files `o` offers: those opened before first, then the shipped scenarios. */
function ScenarioPicker({ picker, rows, columns }: { picker: NonNullable<ScenarioState['picker']>; rows: number; columns: number }) {
  const { top, visible } = windowOf(picker.choices, picker.selected, Math.max(3, rows - 2));
  return (
    <Box flexDirection="column">
      <Text bold>Open a scenario</Text>
      <Text color={theme.muted} wrap="truncate-end">
        ⏎ opens the file on a fresh simulator of its own · t types another path · esc closes
      </Text>
      {picker.choices.length === 0 ? <Text color={theme.muted}>No scenario files found under fixtures/scenarios: press t to type a path.</Text> : null}
      {visible.map((choice, index) => (
        <Text key={choice.file} inverse={top + index === picker.selected}>
          {clip(`${choice.isRecent ? 'recent ' : '       '}${choice.file}`, columns - 1)}
        </Text>
      ))}
    </Box>
  );
}
