import type { Key } from 'ink';
import type { ConsoleState } from './state/console-state.ts';
import type { Command, CommandScope } from './keys/command.ts';
import { matches } from './keys/key-presses.ts';
import { shellCommands } from './keys/shell-commands.ts';
import { catalogCommands } from './keys/catalog-commands.ts';
import { quoteCommands } from './keys/quote-commands.ts';
import { runCommands } from './keys/run-commands.ts';
import { controlCommands } from './keys/control-commands.ts';
import { reportCommands } from './keys/report-commands.ts';
import { scenarioCommands } from './keys/scenario-commands.ts';

/**
 * The one command table (src/tui/keys/: one file per group of screens, in
 * the order the hint bar and help list them). A new screen adds its file
 * there and its commands here.
 */
export const COMMANDS: Command[] = [...shellCommands, ...catalogCommands, ...quoteCommands, ...runCommands, ...controlCommands, ...reportCommands, ...scenarioCommands];

export function commandsFor(scope: CommandScope, state: ConsoleState): Command[] {
  return COMMANDS.filter((c) => c.scope === scope && (!c.when || c.when(state)));
}

export function findCommand(scope: CommandScope, state: ConsoleState, input: string, key: Key): Command | undefined {
  return commandsFor(scope, state).find((c) => c.keys.some((m) => matches(m, input, key)));
}

export type { Command, CommandContext, CommandScope, CommandView, KeyMatch } from './keys/command.ts';
export { keyPresses, matches } from './keys/key-presses.ts';
export { activeScope, globalsActive, SCOPE_TITLES, SCREEN_KEYS, SCREEN_SCOPES } from './keys/screens.ts';
