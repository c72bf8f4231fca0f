import type { Key } from 'ink';
import type { KeyMatch } from './command.ts';

export function matches(match: KeyMatch, input: string, key: Key): boolean {
  if ('input' in match) return input === match.input && !key.ctrl;
  return key[match.key] === true;
}

/** The Key of a single character, as Ink's parser gives it for that character alone. */
function keyOf(char: string, base: Key): Key {
  const plain: Key = { ...base, upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageUp: false, pageDown: false, return: false, escape: false, tab: false, backspace: false, delete: false, ctrl: false, meta: false, shift: /[A-Z]/.test(char) };
  if (char === '\r') return { ...plain, return: true };
  if (char === '\t') return { ...plain, tab: true };
  if (char === '\b') return { ...plain, backspace: true };
  // Ink calls DEL (what the Backspace key sends) `delete`; both erase here.
  if (char === '\u007F') return { ...plain, delete: true };
  const code = char.codePointAt(0) ?? 0;
  if (code >= 1 && code <= 26) return { ...plain, ctrl: true };
  return plain;
}

/**
 * The key presses in one input event. Ink splits its input at escape
 * sequences only, and a terminal read returns whatever arrived since the
 * last one, so keys typed faster than the console reads them (six
 * Backspaces in one burst, or two at 30 a second on a busy machine) come as
 * one event Ink does not recognise: its input is the raw characters and no
 * key flag is set. Such an event is split into one press per character;
 * anything Ink recognised (an arrow, a single key) is passed on as is.
 */
export function keyPresses(input: string, key: Key): Array<{ input: string; key: Key }> {
  const chars = Array.from(input);
  const recognised = key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.return || key.escape || key.tab || key.backspace || key.delete || key.ctrl || key.meta;
  if (chars.length < 2 || recognised) return [{ input, key }];
  return chars.map((char) => {
    const charKey = keyOf(char, key);
    // As Ink reports a control character: its letter with ctrl, no printable input for the named keys.
    const charInput = charKey.ctrl ? String.fromCharCode((char.codePointAt(0) ?? 0) + 96) : charKey.return || charKey.tab || charKey.backspace || charKey.delete ? '' : char;
    return { input: charInput, key: charKey };
  });
}
