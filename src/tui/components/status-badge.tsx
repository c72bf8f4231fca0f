import { Text } from 'ink';
import { theme } from '../theme.ts';

const TONE: Record<string, string> = {
  active: theme.ok,
  available: theme.ok,
  expired: theme.warn,
  unavailable: theme.warn,
  revoked: theme.error,
};

/** A status word in the colour of its meaning. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Text color={TONE[status] ?? theme.muted} bold>
      {status}
    </Text>
  );
}
