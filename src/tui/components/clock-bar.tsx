import { Box, Text } from 'ink';
import { COMMANDS, SCREEN_KEYS } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import type { Environment } from '../state/types.ts';
import { theme } from '../theme.ts';
import { useTerminalSize } from '../viewport.ts';

/** '2026-01-01T00:00:05.000Z' → '2026-01-01 00:00:05Z': seconds are as fine as simulated time gets here. */
export const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

const BRAND = 'understudy';

/** How the tab line writes the screens: the first form, widest first, whose whole line fits the terminal. */
const TAB_FORMS = [
  { withBrand: true, text: (tab: (typeof SCREEN_KEYS)[number]) => `${tab.key} ${tab.label}` },
  { withBrand: false, text: (tab: (typeof SCREEN_KEYS)[number]) => `${tab.key} ${tab.label}` },
  { withBrand: false, text: (tab: (typeof SCREEN_KEYS)[number]) => `${tab.key}${tab.short}` },
] as const;

/** The current tab's brackets add two cells; the brand takes its name and two spaces. */
const tabLineWidth = (form: (typeof TAB_FORMS)[number]) =>
  (form.withBrand ? BRAND.length + 2 : 0) + SCREEN_KEYS.map((tab) => form.text(tab).length).reduce((a, b) => a + b + 1) + 2;

export function tabForm(columns: number): (typeof TAB_FORMS)[number] {
  return TAB_FORMS.find((form) => tabLineWidth(form) <= columns) ?? TAB_FORMS[TAB_FORMS.length - 1];
}

/** The screens by number key; the current one bracketed. Labels as long as the line has room for. */
function Tabs({ columns }: { columns: number }) {
  const screen = useConsole((s) => s.screen);
  const form = tabForm(columns);
  return (
    <Text wrap="truncate-end">
      {form.withBrand ? (
        <Text color={theme.brand} bold>
          {BRAND}
          {'  '}
        </Text>
      ) : null}
      {SCREEN_KEYS.map((tab, index) => {
        const isCurrent = tab.screens.includes(screen);
        const text = form.text(tab);
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
  const { columns } = useTerminalSize();
  const clockKeys = COMMANDS.filter((c) => c.clockBarText && c.scope === 'global');
  return (
    <Box flexDirection="column">
      <Tabs columns={columns} />
      <Box justifyContent="space-between">
        <Text>
          {tabForm(columns).withBrand ? null : environment === 'production' && columns < 110 ? (
            // Below 110 columns the clock keys leave room for one word here: production takes the brand's place.
            <Text color={theme.error} bold>
              PRODUCTION ·{' '}
            </Text>
          ) : (
            <Text color={theme.brand} bold>
              {BRAND} ·{' '}
            </Text>
          )}
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
