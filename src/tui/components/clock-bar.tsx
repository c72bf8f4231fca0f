import { Box, Text } from 'ink';
import { useConsole } from '../state/context.tsx';
import type { Screen } from '../state/types.ts';
import { theme } from '../theme.ts';

const TABS: Array<{ label: string; screens: Screen[] }> = [
  { label: '1 Key', screens: ['home'] },
  { label: '2 Catalog', screens: ['catalog', 'filters', 'agent'] },
];

/** '2026-01-01T00:00:05.000Z' → '2026-01-01 00:00:05Z': seconds are as fine as simulated time gets here. */
const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** Always on top: where you are, and the simulated time (frozen or following the wall clock). */
export function ClockBar() {
  const screen = useConsole((s) => s.screen);
  const clock = useConsole((s) => s.clock);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  return (
    <Box justifyContent="space-between">
      <Text>
        <Text color={theme.brand} bold>
          understudy
        </Text>
        {TABS.map((tab) => (
          <Text key={tab.label} color={tab.screens.includes(screen) ? theme.accent : theme.muted} bold={tab.screens.includes(screen)}>
            {'  '}
            {tab.screens.includes(screen) ? `[${tab.label}]` : ` ${tab.label} `}
          </Text>
        ))}
      </Text>
      {controlAvailable ? (
        clock ? (
          <Text>
            <Text>{shortTime(clock.now)} </Text>
            <Text color={clock.mode === 'frozen' ? theme.warn : theme.ok} bold>
              {clock.mode}
            </Text>
          </Text>
        ) : (
          <Text color={theme.muted}>clock …</Text>
        )
      ) : (
        <Text color={theme.muted}>remote service · no control API</Text>
      )}
    </Box>
  );
}
