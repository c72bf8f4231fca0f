import { Box, Text } from 'ink';
import { AGENT_FILTER_NAMES, AGENT_FILTER_VALUES } from '../../client/index.ts';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';

/** Every filter of spec 4.1, each cycling through "any" and its allowed values. */
export function FiltersScreen() {
  useCommands('filters');
  const { draft, row } = useConsole((s) => s.filters);
  return (
    <Box flexDirection="column">
      <Text bold>
        Filters <Text color={theme.muted}>· ←→ change · ⏎ apply · esc cancel</Text>
      </Text>
      {AGENT_FILTER_NAMES.map((name, index) => {
        const value = draft[name];
        const choices = AGENT_FILTER_VALUES[name];
        const position = value === undefined ? 0 : (choices as readonly string[]).indexOf(value) + 1;
        const isSelected = index === row;
        return (
          <Text key={name}>
            <Text color={theme.accent}>{isSelected ? '› ' : '  '}</Text>
            <Text bold={isSelected}>{name.padEnd(16)}</Text>
            <Text color={value === undefined ? theme.muted : theme.ok} inverse={isSelected}>
              {value ?? 'any'}
            </Text>
            <Text color={theme.muted}>
              {'  '}
              {position}/{choices.length}
            </Text>
          </Text>
        );
      })}
    </Box>
  );
}
