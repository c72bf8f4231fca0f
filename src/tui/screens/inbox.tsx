import { Box, Text } from 'ink';
import { StatusBadge } from '../components/status-badge.tsx';
import { useConsole } from '../state/context.tsx';
import { PRODUCTION_INBOX } from '../state/inbox.ts';
import { clip, fit } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import type { InboxDelivery } from '../webhook-inbox.ts';
import { clockTime } from './detail-lines.ts';

function row(d: InboxDelivery, width: number): string {
  // A refused delivery is not read further: its body is untrusted until the signature checks out.
  const type = d.type === 'service.destination.verification' ? 'challenge' : (d.type ?? '(unverified)');
  const id = d.eventId ? `${d.eventId.slice(0, 8)}…` : '—';
  const retry = d.seenCount > 1 ? `retry, seen ×${d.seenCount}` : 'first';
  return clip(`${clockTime(d.receivedAt)} ${fit(type, 24)} ${id.padEnd(10)} ${fit(d.verdict, 17)} ${String(d.status).padEnd(4)} ${retry}`, width);
}

/**
 * Screen 7: the console's own webhook receiver on 127.0.0.1: every delivery
 * with its signature verdict (spec 6.2 receiver rules) and whether it is a
 * retry (the same event id again).
 */
export function InboxScreen() {
  const inbox = useConsole((s) => s.inbox);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const isProduction = useConsole((s) => s.environment === 'production');
  const { columns, bodyRows } = useViewport();
  // The production explanation wraps to about three lines at 80 columns.
  const rows = Math.max(3, bodyRows - (isProduction ? 8 : 5));
  const newestFirst = [...inbox.deliveries].reverse();
  const maxScroll = Math.max(0, newestFirst.length - rows);
  useCommands('inbox', { view: { maxScroll, pageRows: rows - 1 } });

  if (!inbox.url) {
    return <Text color={theme.muted}>No webhook inbox: the console starts its receiver only with the control API (embedded or local simulator).</Text>;
  }
  const top = Math.min(inbox.scroll, maxScroll);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Webhook inbox </Text>
        <Text color={theme.muted}>{inbox.url}</Text>
      </Text>
      <Text wrap="truncate-end">
        <Text color={theme.muted}>destination </Text>
        {inbox.destination ? <StatusBadge status={inbox.destination.state} /> : <Text color={theme.muted}>none yet</Text>}
        <Text color={theme.muted}>
          {' '}
          · {inbox.subscribedMonitorIds.length} monitor{inbox.subscribedMonitorIds.length === 1 ? '' : 's'} subscribed
          {controlAvailable && !inbox.destination && !isProduction ? ' · press c to create, verify and subscribe' : ''}
        </Text>
      </Text>
      {isProduction ? <Text color={theme.warn}>{PRODUCTION_INBOX}</Text> : null}
      <Text color={theme.heading} bold>
        {clip(`${'Time'.padEnd(8)} ${fit('Type', 24)} ${'Event id'.padEnd(10)} ${fit('Verdict', 17)} HTTP Seen`, columns - 1)}
      </Text>
      {newestFirst.length === 0 ? <Text color={theme.muted}>Nothing received yet.</Text> : null}
      {newestFirst.slice(top, top + rows).map((d, i) => (
        <Text key={`${top + i}`} color={d.verdict === 'verified' ? undefined : d.verdict === 'duplicate-dropped' ? theme.warn : theme.error}>
          {row(d, columns - 1)}
        </Text>
      ))}
      <Text color={theme.muted}>
        {newestFirst.length} received · {newestFirst.filter((d) => d.verdict === 'verified').length} verified · {newestFirst.filter((d) => d.seenCount > 1).length} retries
      </Text>
    </Box>
  );
}
