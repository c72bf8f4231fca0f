import { Box, Text } from 'ink';
import { activeScope, commandsFor, globalsActive } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import { heldLine } from '../chrome-rows.ts';
import { theme } from '../theme.ts';

/** The bottom bar: the keys that work right now, read from the command table. */
export function KeyHints() {
  // The whole state: commands' `when` conditions may look at any of it.
  const state = useConsole((s) => s);
  const scope = activeScope(state);
  if (state.heldKeys.length > 0) return <HeldKeys />;
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

/** While a screen loads, the keys typed meanwhile: they are applied, in order, when it ends. */
function HeldKeys() {
  const held = useConsole((s) => s.heldKeys);
  return <Text color={theme.warn}>{heldLine(held)}</Text>;
}
