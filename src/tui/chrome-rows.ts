import { activeScope, commandsFor, globalsActive } from './keys.ts';
import type { ConsoleState } from './state/console-state.ts';
import type { HeldKey } from './state/types.ts';
import { wrap } from './text.ts';

/** How a held key is written: its character, or the name of the key. */
export function heldLabel({ input, key }: HeldKey): string {
  const named = (
    [
      ['return', '⏎'],
      ['escape', 'esc'],
      ['upArrow', '↑'],
      ['downArrow', '↓'],
      ['leftArrow', '←'],
      ['rightArrow', '→'],
      ['pageUp', 'pgup'],
      ['pageDown', 'pgdn'],
      ['tab', 'tab'],
      ['backspace', '⌫'],
      ['delete', '⌫'],
    ] as const
  ).find(([flag]) => key[flag]);
  if (named) return named[1];
  return key.ctrl ? `ctrl+${input}` : input === ' ' ? 'space' : input;
}

/** The line shown instead of the hint bar while keys are held. */
export const heldLine = (held: HeldKey[]) => `loading… then ${held.map(heldLabel).join(' ')} (Q quits now)`;

/** The tab bar and the clock bar. */
const HEADER_ROWS = 2;

/** Rows of a hint bar laid out as Ink lays out a wrapping row with a gap of 2: items fill a row until the next would pass the edge. */
export function hintRows(items: string[], columns: number): number {
  let rows = 0;
  let used = -1;
  for (const item of items) {
    if (used < 0 || used + 2 + item.length > columns) {
      rows += 1;
      used = item.length;
    } else used += 2 + item.length;
  }
  return Math.max(rows, items.length > 0 ? 1 : 0);
}

/** The hint bar's items as KeyHints writes them: "label description". */
export function hintItems(state: ConsoleState): string[] {
  const scope = activeScope(state);
  return [...commandsFor(scope, state), ...(globalsActive(scope) ? commandsFor('global', state) : [])].filter((c) => !c.isHintHidden).map((c) => `${c.label} ${c.description}`);
}

const linesOf = (text: string, columns: number) => wrap(text, columns).length;

/**
 * The rows the console's frame takes around a screen right now: the header,
 * the waiting, question and prompt lines, the error (with what it means) or
 * the notice, and the hint bar or the held keys. Screens get the rest, so a
 * scroll pane uses every row and the frame never passes the terminal's height.
 */
export function chromeRows(state: ConsoleState, columns: number): number {
  let rows = HEADER_ROWS;
  const { waiting, confirm, prompt, error, notice, heldKeys } = state;
  // The waiting line's three parts, at their longest (its countdown and the frozen-clock advice).
  if (waiting) rows += linesOf(`⏳ ${waiting.refusal.status ?? ''} ${waiting.refusal.message}`, columns) + linesOf(`Retrying ${waiting.what} in 000 s (Retry-After 000 s, retry 00) · esc stops waiting`, columns) + 3;
  if (confirm) rows += linesOf(`${confirm.question} y or ⏎ yes · n or esc no`, columns);
  if (prompt) rows += 1;
  if (error) rows += linesOf(`✖ ${error.code}${error.status ? ` (${error.status})` : ''}: ${error.message}`, columns) + (error.meaning ? linesOf(`→ ${error.meaning}`, columns) : 0);
  else if (notice) rows += linesOf(`✔ ${notice}`, columns);
  rows += heldKeys.length > 0 ? linesOf(heldLine(heldKeys), columns) : hintRows(hintItems(state), columns);
  return rows;
}
