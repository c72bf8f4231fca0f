import { Text } from 'ink';
import { theme } from '../theme.ts';

const TONE: Record<string, string> = {
  active: theme.ok,
  available: theme.ok,
  expired: theme.warn,
  unavailable: theme.warn,
  revoked: theme.error,
  // Spec 3.2 run statuses.
  queued: theme.muted,
  running: theme.accent,
  succeeded: theme.ok,
  partial: theme.warn,
  failed: theme.error,
  cancelled: theme.warn,
  // Spec 3.3 billing and 3.6 monitor statuses.
  reserved: theme.accent,
  pending: theme.warn,
  settled: theme.ok,
  stopped: theme.muted,
  paused: theme.warn,
  exhausted: theme.warn,
  verified: theme.ok,
  failing: theme.error,
};

/** A status word in the colour of its meaning. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Text color={TONE[status] ?? theme.muted} bold>
      {status}
    </Text>
  );
}
