import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { COMMANDS, SCREEN_KEYS, SCREEN_SCOPES, globalsActive, matches, type CommandScope, type KeyMatch } from '../../src/tui/keys.ts';
import { fit, wrap } from '../../src/tui/text.ts';

/** The command table is data: check it for clashes rather than discover them by pressing keys. */

const describeMatch = (m: KeyMatch) => ('input' in m ? `input:${m.input}` : `key:${m.key}`);

describe('command table', () => {
  it('has unique ids', () => {
    const ids = COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never binds one key twice where both scopes listen at once', () => {
    const scopes: CommandScope[] = ['help', 'waiting', 'confirm', 'prompt', ...Object.values(SCREEN_SCOPES).flat()];
    for (const scope of scopes) {
      // A scope's command marked overridesGlobal takes its key from the global one (useCommands).
      const taken = COMMANDS.filter((c) => c.scope === scope && c.overridesGlobal).flatMap((c) => c.keys.map(describeMatch));
      const globals = COMMANDS.filter((c) => c.scope === 'global' && globalsActive(scope) && !c.keys.some((m) => taken.includes(describeMatch(m))));
      const live = [...COMMANDS.filter((c) => c.scope === scope), ...globals];
      const keys = live.flatMap((c) => c.keys.map(describeMatch));
      expect(keys.filter((k, i) => keys.indexOf(k) !== i), `duplicate keys in ${scope}`).toEqual([]);
    }
  });

  it('has a number key for every screen, and every scope a screen', () => {
    expect(SCREEN_KEYS.map((s) => s.key)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0']);
    const owned = new Set(Object.values(SCREEN_SCOPES).flat());
    for (const command of COMMANDS) {
      if (!['global', 'help', 'waiting', 'confirm', 'prompt'].includes(command.scope)) expect(owned.has(command.scope), command.id).toBe(true);
    }
  });

  it('matches printable keys only without ctrl', () => {
    const plain = { ctrl: false } as Key;
    expect(matches({ input: 'q' }, 'q', plain)).toBe(true);
    expect(matches({ input: 'q' }, 'q', { ctrl: true } as Key)).toBe(false);
    expect(matches({ key: 'return' }, '', { return: true } as Key)).toBe(true);
  });
});

describe('text fitting', () => {
  it('cuts and pads to an exact width', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('ab', 4)).toBe('ab  ');
    expect(fit('ab', 4, 'right')).toBe('  ab');
  });

  it('wraps words and splits words longer than a line', () => {
    expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('a\nb', 10)).toEqual(['a', 'b']);
    for (const line of wrap('The reserved maximum is released in full when the run fails or is cancelled.', 20)) expect(line.length).toBeLessThanOrEqual(20);
  });
});
