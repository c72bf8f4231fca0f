import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { COMMANDS, matches, type CommandScope, type KeyMatch } from '../../src/tui/keys.ts';
import { fit, wrap } from '../../src/tui/text.ts';

/** The command table is data: check it for clashes rather than discover them by pressing keys. */

const describeMatch = (m: KeyMatch) => ('input' in m ? `input:${m.input}` : `key:${m.key}`);

describe('command table', () => {
  it('has unique ids', () => {
    const ids = COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never binds one key twice where both scopes listen at once', () => {
    const screens: CommandScope[] = ['home', 'catalog', 'filters', 'agent', 'help'];
    for (const screen of screens) {
      const live = COMMANDS.filter((c) => c.scope === screen || c.scope === 'global');
      const keys = live.flatMap((c) => c.keys.map(describeMatch));
      expect(keys.filter((k, i) => keys.indexOf(k) !== i), `duplicate keys in ${screen}`).toEqual([]);
    }
    const search = COMMANDS.filter((c) => c.scope === 'search').flatMap((c) => c.keys.map(describeMatch));
    expect(new Set(search).size).toBe(search.length);
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
