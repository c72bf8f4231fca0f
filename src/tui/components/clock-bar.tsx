import { Box, Text, useStdout } from 'ink';
import { COMMANDS, SCREEN_KEYS } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import type { Environment } from '../state/types.ts';
import { terminalSize } from '../text.ts';
import { theme } from '../theme.ts';

/** '2026-01-01T00:00:05.000Z' → '2026-01-01 00:00:05Z': seconds are as fine as simulated time gets here. */
export const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** The screens by number key; the current one bracketed. Short labels in 80 columns. */
function Tabs() {
  const screen = useConsole((s) => s.screen);
  const { columns } = terminalSize(useStdout().stdout);
  const isWide = columns >= 110;
  return (
    <Text wrap="truncate-end">
      {isWide ? (
        <Text color={theme.brand} bold>
          understudy{'  '}
        </Text>
      ) : null}
      {SCREEN_KEYS.map((tab, index) => {
        const isCurrent = tab.screens.includes(screen);
        const text = isWide ? `${tab.key} ${tab.label}` : `${tab.key}${tab.short}`;
        return (
          <Text key={tab.key} color={isCurrent ? theme.accent : theme.muted} bold={isCurrent}>
            {index === 0 ? '' : ' '}
            {isCurrent ? `[${text}]` : text}
          </Text>
        );
      })}
    </Text>
  );
}

/** Production refuses what a rehearsal allows (spec 2.2, 4, 4.10), so it is said on every screen that has room. */
function EnvironmentBadge({ environment }: { environment: Environment | null }) {
  if (!environment) return null;
  return (
    <Text color={environment === 'production' ? theme.error : theme.muted} bold={environment === 'production'}>
      {' · '}
      {environment === 'production' ? 'PRODUCTION' : 'test env'}
    </Text>
  );
}

/**
 * Always on top: the screens, and the simulated clock with the keys that move
 * it (read from the command table). The simulator fixes its clock mode at
 * start (--clock realtime|frozen) and offers no way to switch it, so there is
 * no pause key: advancing works in both modes (realtime adds an offset).
 */
export function ClockBar() {
  const clock = useConsole((s) => s.clock);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const environment = useConsole((s) => s.environment);
  const { columns } = terminalSize(useStdout().stdout);
  const clockKeys = COMMANDS.filter((c) => c.clockBarText && c.scope === 'global');
  return (
    <Box flexDirection="column">
      <Tabs />
      <Box justifyContent="space-between">
        <Text>
          {columns < 110 ? (
            environment === 'production' ? (
              <Text color={theme.error} bold>
                PRODUCTION ·{' '}
              </Text>
            ) : (
              <Text color={theme.brand} bold>
                understudy ·{' '}
              </Text>
            )
          ) : null}
          {controlAvailable ? (
            clock ? (
              <>
                <Text>{shortTime(clock.now)} </Text>
                <Text color={clock.mode === 'frozen' ? theme.warn : theme.ok} bold>
                  {clock.mode}
                </Text>
              </>
            ) : (
              <Text color={theme.muted}>clock …</Text>
            )
          ) : (
            <Text color={theme.muted}>remote service · no control API</Text>
          )}
          {/* Below 110 columns the clock keys leave no room: production takes the brand's place, test (the default) goes unsaid. */}
          {columns >= 110 || !controlAvailable ? <EnvironmentBadge environment={environment} /> : null}
        </Text>
        {controlAvailable ? (
          <Text>
            {clockKeys.map((c) => (
              <Text key={c.id}>
                {'  '}
                <Text color={theme.accent} bold>
                  {c.label}
                </Text>
                <Text color={theme.muted}> {c.clockBarText}</Text>
              </Text>
            ))}
          </Text>
        ) : null}
      </Box>
    </Box>
  );
}
