import { Box, Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import { clip } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import { clockTime } from './detail-lines.ts';

/** Screen 8: GET /sim/requests: route, method, time and status of each keyed request, never bodies or values (spec 5). */
export function RequestsScreen() {
  const { entries, scroll } = useConsole((s) => s.requests);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const { columns, bodyRows } = useViewport();
  const rows = Math.max(3, bodyRows - 3);
  const newestFirst = entries ? [...entries].reverse() : [];
  const maxScroll = Math.max(0, newestFirst.length - rows);
  useCommands('requests', { view: { maxScroll, pageRows: rows - 1 } });
  if (!controlAvailable) return <Text color={theme.muted}>The request log comes from the control API, which is hidden against a remote service.</Text>;
  if (!entries) return <Text color={theme.muted}>Reading the request log…</Text>;
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Request log </Text>
        <Text color={theme.muted}>{entries.length} requests, newest first · r to reread</Text>
      </Text>
      <Text color={theme.heading} bold>
        {clip(`${'Time'.padEnd(8)} ${'Method'.padEnd(6)} ${'Status'.padEnd(6)} Route`, columns - 1)}
      </Text>
      {newestFirst.slice(top, top + rows).map((e, i) => {
        const status = Number(e.status);
        return (
          <Text key={top + i} color={status >= 500 ? theme.error : status >= 400 ? theme.warn : undefined}>
            {clip(`${clockTime(e.at ?? e.time)} ${String(e.method).padEnd(6)} ${String(e.status).padEnd(6)} ${String(e.route ?? '')}`, columns - 1)}
          </Text>
        );
      })}
      {maxScroll > 0 ? <Text color={theme.muted}>{`${top + 1}–${Math.min(newestFirst.length, top + rows)} of ${newestFirst.length} · ↑↓ scroll`}</Text> : null}
    </Box>
  );
}
