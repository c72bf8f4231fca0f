import { Box, Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';

/**
 * The latest failure as the spec's code and message (part 7), with the HTTP
 * status when there was one and what it means; or the last action's notice,
 * wrapped whole (it may name a folder, which is never cut).
 */
export function ErrorLine() {
  const error = useConsole((s) => s.error);
  const notice = useConsole((s) => s.notice);
  if (!error) return notice ? <Text color={theme.ok}>✔ {notice}</Text> : null;
  return (
    <Box flexDirection="column">
      <Text color={theme.error}>
        ✖ {error.code}
        {error.status ? ` (${error.status})` : ''}: {error.message}
      </Text>
      {error.meaning ? <Text color={theme.warn}>→ {error.meaning}</Text> : null}
    </Box>
  );
}
