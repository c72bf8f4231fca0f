import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { Monitor, Notification } from '../../client/index.ts';
import { Lines, maxScrollOf } from '../components/lines.tsx';
import { SelectableTable, type Column } from '../components/selectable-table.tsx';
import { useConsole } from '../state/context.tsx';
import { wrap } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import { clockTime, monitorDetailLines } from './detail-lines.ts';

/** The window of a list that keeps the selected row in view. */
export function windowOf<T>(items: T[], selected: number, rows: number): { top: number; visible: T[] } {
  const top = Math.max(0, Math.min(selected - rows + 1, items.length - rows));
  return { top, visible: items.slice(top, top + rows) };
}

function MonitorList() {
  const { list, selected } = useConsole((s) => s.monitors);
  const { columns, bodyRows } = useViewport();
  if (!list) return <Text color={theme.muted}>Reading monitors…</Text>;
  if (list.length === 0) return <Text color={theme.muted}>No monitors: press n to create a demo monitor (token transfers on base).</Text>;
  const columnsOf: Column<Monitor>[] = [
    { header: 'Monitor', width: 'rest', cell: (m) => m.name ?? m.id },
    { header: 'Chain', width: 'content', cell: (m) => m.chain ?? '' },
    { header: 'Status', width: 'content', cell: (m) => m.status },
    { header: 'Ticks', width: 'content', align: 'right', cell: (m) => `${m.ticksUsed ?? 0}/${m.tickBudget ?? '?'}` },
    { header: 'RPC', width: 'content', align: 'right', cell: (m) => `${m.rpcUsed ?? 0}/${m.rpcBudget ?? '?'}` },
    { header: 'Ends', width: 8, cell: (m) => clockTime(m.endsAt) },
  ];
  const { top, visible } = windowOf(list, selected, Math.max(3, bodyRows - 3));
  const current = list[selected];
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Monitors </Text>
        <Text color={theme.muted}>{list.length} · GET /v1/monitors, newest first</Text>
      </Text>
      <SelectableTable columns={columnsOf} rows={visible} selected={selected - top} rowKey={(m) => m.id} width={columns - 1} />
      <Text color={theme.muted} wrap="truncate-end">
        {current?.statusReason ? `status reason: ${current.statusReason}` : current ? `${current.id} · ⏎ for windows, events, retractions and deliveries` : ' '}
      </Text>
    </Box>
  );
}

function MonitorDetailView() {
  const { detail, scroll } = useConsole((s) => s.monitors);
  const { columns, bodyRows } = useViewport();
  const lines = useMemo(() => (detail ? monitorDetailLines(detail, columns - 2) : []), [detail, columns]);
  const viewport = Math.max(3, bodyRows - 1);
  useCommands('monitor', { view: { maxScroll: maxScrollOf(lines, viewport), pageRows: viewport - 1 } });
  if (!detail) return <Text color={theme.muted}>Reading the monitor…</Text>;
  return <Lines lines={lines} rows={viewport} scroll={scroll} />;
}

/** Screen 5: monitors (spec 2.13, 4.13): list, detail, stop; and demo keys to create one and make it fire. */
export function MonitorsScreen() {
  const isDetailOpen = useConsole((s) => s.monitors.isDetailOpen);
  useCommands('monitors');
  return isDetailOpen ? <MonitorDetailView /> : <MonitorList />;
}

/** Screen 6: in-app notifications (spec 2.14), newest first; a to acknowledge. */
export function NotificationsScreen() {
  useCommands('notifications');
  const { list, selected } = useConsole((s) => s.notifications);
  const { columns, bodyRows } = useViewport();
  if (!list) return <Text color={theme.muted}>Reading notifications…</Text>;
  if (list.length === 0) return <Text color={theme.muted}>No notifications: a monitor event (screen 5: n, then m) or a final delivery failure makes one.</Text>;
  const columnsOf: Column<Notification>[] = [
    { header: 'Time', width: 8, cell: (n) => clockTime(n.createdAt) },
    { header: 'Kind', width: 'content', cell: (n) => n.kind },
    { header: 'Title', width: 'rest', cell: (n) => n.title },
    { header: 'Ack', width: 'content', cell: (n) => (n.acknowledgedAt ? clockTime(n.acknowledgedAt) : 'no') },
  ];
  const current = list[selected];
  const bodyLines = current ? wrap(current.body, columns - 2).slice(0, 4) : [];
  const { top, visible } = windowOf(list, selected, Math.max(3, bodyRows - 3 - bodyLines.length));
  const unread = list.filter((n) => !n.acknowledgedAt).length;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Notifications </Text>
        <Text color={theme.muted}>
          {list.length} · {unread} not acknowledged
        </Text>
      </Text>
      <SelectableTable columns={columnsOf} rows={visible} selected={selected - top} rowKey={(n) => n.id} width={columns - 1} />
      {bodyLines.map((line, i) => (
        <Text key={i} color={theme.muted}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
