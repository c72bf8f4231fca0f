import { Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';

/** The latest failure as the spec's code and message (part 7), with the HTTP status when there was one. */
export function ErrorLine() {
  const error = useConsole((s) => s.error);
  if (!error) return null;
  return (
    <Text color={theme.error}>
      ✖ {error.code}
      {error.status ? ` (${error.status})` : ''}: {error.message}
    </Text>
  );
}
