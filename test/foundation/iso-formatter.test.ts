import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso, lastIsoFormatter } from '../../sim/domain/context.ts';

describe('the ISO formatter that remembers its last instant', () => {
  it('gives what iso gives for any sequence of instants, repeated or not (property)', () => {
    const instant = fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 });
    fc.assert(
      fc.property(fc.array(fc.oneof(instant, fc.constantFrom(0, 1, 1_764_000_000_000)), { maxLength: 50 }), (instants) => {
        const format = lastIsoFormatter();
        for (const ms of instants) expect(format(ms)).toBe(iso(ms));
      }),
      { numRuns: 300 },
    );
  });
});
