import { Box, Text } from 'ink';
import { activeScope, commandsFor, globalsActive } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';

/** The bottom bar: the keys that work right now, read from the command table. */
export function KeyHints() {
  // The whole state: commands' `when` conditions may look at any of it.
  const state = useConsole((s) => s);
  const scope = activeScope(state);
  const commands = [...commandsFor(scope, state), ...(globalsActive(scope) ? commandsFor('global', state) : [])].filter((c) => !c.isHintHidden);
  return (
    <Box flexWrap="wrap" columnGap={2}>
      {commands.map((c) => (
        <Text key={c.id}>
          <Text color={theme.accent} bold>
            {c.label}
          </Text>
          <Text color={theme.muted}> {c.description}</Text>
        </Text>
      ))}
    </Box>
  );
}
