import { Box, Text } from 'ink';
import { COMMANDS, SCOPE_TITLES, SCREEN_KEYS, SCREEN_SCOPES, type CommandScope } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import { fit } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';

/**
 * The command table for where you are: what works everywhere, on this screen
 * (every face of it), and in text fields; then the screens' number keys.
 * Keys the hint bar leaves out are listed here too.
 */
export function HelpOverlay() {
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const screen = useConsole((s) => s.screen);
  useCommands('help');
  // Home has no keys of its own: show the catalog's, where a rehearsal starts.
  const here = screen === 'home' ? SCREEN_SCOPES.catalog : SCREEN_SCOPES[screen];
  const scopes: CommandScope[] = ['global', ...here];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text color={theme.accent} bold>
        Keys (? or esc to close)
      </Text>
      <Box flexWrap="wrap" columnGap={2}>
        {scopes.map((scope) => (
          <Box key={scope} flexDirection="column" width={24}>
            <Text color={theme.heading} bold>
              {SCOPE_TITLES[scope]}
            </Text>
            {COMMANDS.filter((c) => c.scope === scope && !c.isHelpHidden && (!c.when || controlAvailable)).map((c) => (
              <Text key={c.id} wrap="truncate-end">
                <Text color={theme.accent}>{fit(c.helpKeys ?? c.label, 9)} </Text>
                {c.description}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
      <Text color={theme.muted} wrap="wrap">
        {`Screens: ${SCREEN_KEYS.map((s) => `${s.key} ${s.label}`).join(' · ')}.${controlAvailable ? ' The clock mode is fixed at start (--clock); there is no pause, only the advance keys.' : ''}`}
      </Text>
    </Box>
  );
}
