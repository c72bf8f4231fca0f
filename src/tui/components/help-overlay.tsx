import { Box, Text } from 'ink';
import { COMMANDS, SCOPE_TITLES, SCREEN_KEYS, SCREEN_SCOPES, type CommandScope } from '../keys.ts';
import { useConsole } from '../state/context.tsx';
import { wrap } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';

/** One line of help: a scope's title, or one of its commands. */
type HelpRow = { kind: 'title'; text: string } | { kind: 'command'; keys: string; description: string };

/** Border and padding on each side of the overlay. */
const FRAME = 4;
const GAP = 2;

/**
 * Each scope's block (its title and commands) flowed into as few columns as
 * fit the width, newspaper-style, each column as wide as the widest row, so
 * no description is cut while there is room. A block moves whole to the next
 * column when it does not fit below another; only a block taller than a
 * column is split.
 */
export function flowColumns(blocks: HelpRow[][], rowWidth: number, innerWidth: number): HelpRow[][] {
  const fitting = Math.max(1, Math.floor((innerWidth + GAP) / (rowWidth + GAP)));
  const total = blocks.reduce((n, block) => n + block.length, 0);
  for (let height = Math.ceil(total / fitting); ; height += 1) {
    const columns: HelpRow[][] = [[]];
    for (const block of blocks) {
      let rest = block;
      if (columns[columns.length - 1].length + rest.length > height && rest.length <= height) columns.push([]);
      while (rest.length > 0) {
        const column = columns[columns.length - 1];
        const room = height - column.length;
        if (room <= 0) {
          columns.push([]);
          continue;
        }
        column.push(...rest.slice(0, room));
        rest = rest.slice(room);
      }
    }
    const used = columns.filter((c) => c.length > 0);
    if (used.length <= fitting) return used;
  }
}

/** Items joined by a separator and broken into lines between items, never inside one ("6 Notifications" stays whole). */
function packItems(items: string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + separator.length + item.length <= width) lines[lines.length - 1] = `${last}${separator}${item}`;
    else lines.push(...wrap(item, width));
  }
  return lines;
}

/**
 * The command table for where you are: what works everywhere, on this screen
 * (every face of it), and in text fields; then the screens' number keys.
 * Keys the hint bar leaves out are listed here too.
 */
export function HelpOverlay() {
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const screen = useConsole((s) => s.screen);
  const { columns } = useViewport();
  useCommands('help');
  // Home has no keys of its own: show the catalog's, where a rehearsal starts.
  const here = screen === 'home' ? SCREEN_SCOPES.catalog : SCREEN_SCOPES[screen];
  const scopes: CommandScope[] = ['global', ...here];
  const blocks: HelpRow[][] = scopes.map((scope) => [
    { kind: 'title' as const, text: SCOPE_TITLES[scope] },
    ...COMMANDS.filter((c) => c.scope === scope && !c.isHelpHidden && (!c.when || controlAvailable)).map((c) => ({
      kind: 'command' as const,
      keys: c.helpKeys ?? c.label,
      description: c.description,
    })),
  ]);
  const rows = blocks.flat();
  const keyWidth = Math.max(...rows.map((r) => (r.kind === 'command' ? r.keys.length : 0)));
  const innerWidth = columns - FRAME;
  const rowWidth = Math.min(innerWidth, Math.max(...rows.map((r) => (r.kind === 'command' ? keyWidth + 1 + r.description.length : r.text.length))));
  const screens = SCREEN_KEYS.map((s, i) => `${i === 0 ? 'Screens: ' : ''}${s.key} ${s.label}${i === SCREEN_KEYS.length - 1 ? '.' : ''}`);
  const clockNote = controlAvailable ? wrap('The clock mode is fixed at start (--clock); there is no pause, only the advance keys.', innerWidth) : [];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text color={theme.accent} bold>
        Keys (? or esc to close)
      </Text>
      <Box columnGap={GAP}>
        {flowColumns(blocks, rowWidth, innerWidth).map((column, index) => (
          <Box key={index} flexDirection="column" width={rowWidth}>
            {column.map((row, i) =>
              row.kind === 'title' ? (
                <Text key={i} color={theme.heading} bold>
                  {row.text}
                </Text>
              ) : (
                <Text key={i}>
                  <Text color={theme.accent}>{row.keys.padEnd(keyWidth)} </Text>
                  {row.description}
                </Text>
              ),
            )}
          </Box>
        ))}
      </Box>
      {[...packItems(screens, ' · ', innerWidth), ...clockNote].map((line, i) => (
        <Text key={i} color={theme.muted}>
          {line}
        </Text>
      ))}
    </Box>
  );
}
