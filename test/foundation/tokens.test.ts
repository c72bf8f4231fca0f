import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ratchetStart, SeededRandom, type TokenAlphabet } from '../../sim/runtime/random.ts';

/**
 * Tokens (key secrets, challenges, chat codes) come from nanoid's customRandom
 * fed the seeded stream: the same seed and draws give the same token, in the
 * alphabet asked for, and a token moves the stream as its draws do, no more.
 */
const PATTERNS: Record<TokenAlphabet, RegExp> = { url: /^[A-Za-z0-9_-]+$/, hex: /^[0-9a-f]+$/, digits: /^[0-9]+$/ };

describe('SeededRandom.token', () => {
  it('is the same for the same seed and draws, different for another seed, and in its alphabet at its length', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom<TokenAlphabet>('url', 'hex', 'digits'), fc.integer({ min: 1, max: 64 }), (seed, alphabet, size) => {
        const a = new SeededRandom(ratchetStart(seed));
        const b = new SeededRandom(ratchetStart(seed));
        const first = a.token(alphabet, size);
        expect(b.token(alphabet, size)).toBe(first);
        expect(first).toHaveLength(size);
        expect(first).toMatch(PATTERNS[alphabet]);
        // The streams stay together afterwards.
        expect(a.snapshot()).toEqual(b.snapshot());
      }),
    );
    expect(new SeededRandom(ratchetStart('1')).token('url', 43)).not.toBe(new SeededRandom(ratchetStart('2')).token('url', 43));
  });

  it('a 43-character url token is one draw of 43 bytes (two ratchet steps), sealed as asked', () => {
    const random = new SeededRandom(ratchetStart('7'));
    const seen: number[] = [];
    const token = random.token('url', 43, (drawn) => {
      seen.push(drawn.length);
      return Buffer.alloc(drawn.length, 0);
    });
    expect(seen).toEqual([43]);
    // Byte 0 is nanoid's first character of its own alphabet ('u'): the sealed bytes, not the drawn ones, are used.
    expect(token).toBe('u'.repeat(43));
    expect(random.snapshot().counter).toBe(2);
  });

  it('uses every character of the 64 over many draws (nanoid keeps them equally likely)', () => {
    const random = new SeededRandom(ratchetStart('spread'));
    const chars = new Set(Array.from({ length: 40 }, () => random.token('url', 43)).join(''));
    expect(chars.size).toBe(64);
  });
});
