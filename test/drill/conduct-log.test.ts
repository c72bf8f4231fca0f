import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupOf } from '../../sim/drill/profiles.ts';
import { ConductLog } from '../../sim/drill/log.ts';
import type { NewConductLine } from '../../sim/drill/line.ts';

/** The conduct log: plain lines in a bounded array per key, held against the plainest model. */

const KEYS = ['k1', 'k2', 'k3'];
const lineArb: fc.Arbitrary<NewConductLine> = fc
  .record({ keyId: fc.constantFrom(...KEYS), realMs: fc.nat(10_000_000), status: fc.option(fc.constantFrom(200, 202, 404, 429, 500), { nil: null }), answered: fc.boolean() })
  .map((r) => ({ ...r, method: 'GET', route: '/v1/runs/:id', group: groupOf('GET', '/v1/runs/:id'), at: '2026-01-01T00:00:00.000Z', chaos: [], target: 'T' }));

describe('the conduct log', () => {
  it('keeps each key its own lines, oldest first, never more than the bound, and counts exactly what it dropped (property)', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 300 }), fc.integer({ min: 1, max: 60 }), (lines, perKey) => {
        const log = new ConductLog({ linesPerKey: perKey });
        for (const line of lines) log.record(line);
        for (const key of KEYS) {
          const all = lines.map((l, i) => ({ ...l, seq: i + 1 })).filter((l) => l.keyId === key);
          const { lines: kept, dropped } = log.of(key);
          expect(kept.length).toBeLessThanOrEqual(perKey);
          expect(dropped + kept.length).toBe(all.length);
          // What is kept is exactly the newest of the key's lines.
          expect(kept).toEqual(all.slice(dropped));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('drops the key first seen, with its lines, past the keys tracked; a reset empties it, clock moves included', () => {
    const log = new ConductLog({ keysTracked: 2 });
    const line = (keyId: string): NewConductLine => ({ keyId, method: 'GET', route: '/v1/buyer/key', group: 'read', at: '2026-01-01T00:00:00.000Z', realMs: 0, status: 200, answered: true, chaos: [], target: '/v1/buyer/key' });
    for (const keyId of ['k1', 'k2', 'k1', 'k3']) log.record(line(keyId));
    expect(log.keys()).toEqual(['k2', 'k3']);
    expect(log.linesOf('k1')).toEqual([]);
    log.clockMoved();
    const after = log.record(line('k2'));
    expect(log.movedBetween(1, after.seq)).toBe(true);
    log.clear();
    expect(log.keys()).toEqual([]);
    expect(log.record(line('k1')).seq).toBe(1);
    expect(log.movedBetween(0, 100)).toBe(false);
  });
});
