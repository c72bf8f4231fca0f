import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { isTerminal, pollDelayMs, type RunEvent } from '../../client/index.ts';
import { Bar } from '../components/bar.tsx';
import { Lines, maxScrollOf } from '../components/lines.tsx';
import { SelectableTable, type Column } from '../components/selectable-table.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useConsole } from '../state/context.tsx';
import type { RunListItem } from '../state/run.ts';
import { messageWithUnits } from '../message-amounts.ts';
import { clip, wrap } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import type { DetailLine } from './agent-lines.ts';
import { billingLines, clockTime, exportLines, receiptLines } from './detail-lines.ts';
import { moneyLines } from './money-lines.ts';
import { noExportLines } from './no-export.ts';

/** Seconds from the first event, with tenths when the step fell between seconds. */
function offsetOf(event: RunEvent, first: RunEvent | undefined): string {
  if (!first) return '';
  const ms = Date.parse(event.createdAt) - Date.parse(first.createdAt);
  if (Number.isNaN(ms)) return '';
  return `+${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)}s`;
}

/** One event per line, its message (amounts in units) wrapped under itself: time, offset from the first event, step, message. */
function timelineLines(events: RunEvent[], profile: string | null, width: number): DetailLine[] {
  const first = events[0];
  const lines: DetailLine[] = [];
  for (const event of events) {
    const prefix = `${clockTime(event.createdAt)} ${offsetOf(event, first).padStart(7)}  ${event.step.padEnd(17)} `;
    const tone = event.step === 'failed' || event.step === 'deadline-exceeded' || event.step === 'cancelled' ? ('heading' as const) : undefined;
    wrap(messageWithUnits(event.message, profile), Math.max(10, width - prefix.length)).forEach((part, i) => lines.push({ text: clip(`${i === 0 ? prefix : ' '.repeat(prefix.length)}${part}`, width), tone }));
  }
  return lines;
}

function RunList() {
  const { list, selected } = useConsole((s) => s.run);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const isRemembered = useConsole((s) => s.memoryWhere !== null);
  const { columns, bodyRows } = useViewport();
  if (!list) return <Text color={theme.muted}>Reading runs…</Text>;
  if (list.length === 0) {
    return <Text color={theme.muted}>No runs yet: quote an agent in the catalog (2, then d and q) and accept the quote.</Text>;
  }
  const columnsOf: Column<RunListItem>[] = [
    { header: 'Run', width: 10, cell: (r) => `${r.id.slice(0, 8)}…` },
    { header: 'Status', width: 'content', cell: (r) => r.status },
    { header: 'Created', width: 8, cell: (r) => clockTime(r.createdAt) },
    { header: 'Agent', width: 'rest', cell: (r) => r.agentName ?? (r.listingId ? `listing ${r.listingId.slice(0, 8)}…` : '') },
  ];
  const rows = Math.max(3, bodyRows - 3);
  const top = Math.max(0, Math.min(selected - rows + 1, list.length - rows));
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Runs </Text>
        <Text color={theme.muted}>
          {list.length} · {controlAvailable
            ? "the account's runs in the key's asset (control API) and this console's"
            : isRemembered
              ? 'accepted through this key, kept across sessions (spec 4: no run list)'
              : 'accepted in this console (a key cannot list runs, spec 4)'}
        </Text>
      </Text>
      <SelectableTable columns={columnsOf} rows={list.slice(top, top + rows)} selected={selected - top} rowKey={(r) => r.id} width={columns - 1} />
    </Box>
  );
}

const VIEW_TITLES = { status: 'status and events', billing: 'billing', receipt: 'settlement receipt', export: 'export', money: 'money, part by part (understudy explain)' } as const;

/** One run: live status, the timeline, reads against the agent's maximum, and its money views. */
function RunDetail() {
  const run = useConsole((s) => s.run);
  const profile = useConsole((s) => s.key?.profile ?? null);
  // The export read's refusal, when it had one (the error line holds the latest call's).
  const refusal = useConsole((s) => s.error);
  const { columns, bodyRows } = useViewport();
  const { read, view, billing, receipt, exported, scroll, pollIndex, maximumRpcCalls, agentName } = run;
  const status = read?.run.status;
  const isLive = status !== undefined && !isTerminal(status);

  const header = 4;
  const viewport = Math.max(3, bodyRows - header - 1);
  const lines = useMemo((): DetailLine[] => {
    const width = columns - 2;
    if (view !== 'status' && run.isViewLoading) return [{ text: `Reading the ${VIEW_TITLES[view]}…`, tone: 'muted' }];
    if (view === 'billing') return billing ? billingLines(billing, profile, width) : [{ text: 'No billing read (yet): see the error line.', tone: 'muted' }];
    if (view === 'receipt') return receipt ? receiptLines(receipt, profile, width) : [{ text: 'No receipt: there is one only once the billing is settled (spec 4.9).', tone: 'muted' }];
    if (view === 'money') return moneyLines(run, profile, width);
    if (view === 'export') return exported ? exportLines(exported.export, exported.artifactId, exported.bytes, profile, width) : noExportLines(read?.run.status, refusal);
    return read ? timelineLines(read.events ?? [], profile, width) : [];
  }, [view, billing, receipt, exported, read, profile, columns, run, refusal]);
  const maxScroll = maxScrollOf(lines, viewport);
  useCommands('run', { view: { maxScroll, pageRows: viewport - 1 } });

  if (!read) return <Text color={theme.muted}>{run.isLoading ? 'Reading the run…' : 'No run read: see the error line.'}</Text>;
  const r = read.run;
  const used = r.rpcUsed ?? 0;
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text wrap="truncate-end">
          <Text bold>Run {r.id.slice(0, 8)}… </Text>
          <Text color={theme.accent}>{agentName ?? ''}</Text>
        </Text>
        <Text>
          <StatusBadge status={r.status} />
          <Text color={theme.muted}>{isLive ? ` · polling (next in ${pollDelayMs(pollIndex) / 1000} s)` : ' · terminal'}</Text>
        </Text>
      </Box>
      <Text color={theme.muted} wrap="truncate-end">
        created {clockTime(r.createdAt)} · updated {clockTime(r.updatedAt)} · deadline {r.deadlineAt ? clockTime(r.deadlineAt) : '—'} · mode {r.mode ?? '—'} · attempt {r.attempt ?? '—'}
      </Text>
      <Text>
        <Text color={theme.muted}>Reads </Text>
        {maximumRpcCalls ? <Bar part={used} whole={maximumRpcCalls} width={Math.min(30, columns - 40)} caption={`${used} / ${maximumRpcCalls} (agent's maximumRpcCalls)`} /> : <Text>{used} (maximum unknown)</Text>}
      </Text>
      <Text bold color={theme.heading}>
        {VIEW_TITLES[view]}
        <Text color={theme.muted}>{view === 'status' ? ` · ${(read.events ?? []).length} events` : ''}</Text>
      </Text>
      <Lines lines={lines} rows={viewport} scroll={view === 'status' ? maxScroll - Math.min(scroll, maxScroll) : scroll} />
    </Box>
  );
}

/** Screen 3: the runs, and one run with its billing, receipt and export (spec 4.6–4.9). */
export function RunScreen() {
  const runId = useConsole((s) => s.run.runId);
  useCommands('runs');
  return runId ? <RunDetail /> : <RunList />;
}
