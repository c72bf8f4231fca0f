import { Box, Text } from 'ink';
import { COMMANDS, type CommandScope } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';

const SECTIONS: Array<{ scope: CommandScope; title: string }> = [
  { scope: 'global', title: 'Everywhere' },
  { scope: 'catalog', title: 'Catalog' },
  { scope: 'search', title: 'Search box' },
  { scope: 'filters', title: 'Filters' },
  { scope: 'agent', title: 'Agent detail' },
];

/** The command table grouped by where each command works, including keys the hint bar leaves out. */
export function HelpOverlay() {
  const controlAvailable = useConsole((s) => s.controlAvailable);
  useCommands('help');
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text color={theme.accent} bold>
        Keys (? or esc to close)
      </Text>
      <Box flexWrap="wrap" columnGap={2}>
        {SECTIONS.map(({ scope, title }) => (
          <Box key={scope} flexDirection="column" width={24}>
            <Text color={theme.heading} bold>
              {title}
            </Text>
            {COMMANDS.filter((c) => c.scope === scope && !c.isHelpHidden && (!c.when || controlAvailable)).map((c) => (
              <Text key={c.id} wrap="truncate-end">
                <Text color={theme.accent}>{(c.helpKeys ?? c.label).padEnd(9)}</Text>
                {c.description}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
