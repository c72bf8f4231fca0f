import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, groupOf, type ChaosKind } from '../../sim/chaos/profiles.ts';
import { ConductLog, type ConductLine, type NewConductLine } from '../../sim/domain/conduct/index.ts';

/**
 * The conduct log keeps lines as rows of numbers (sim/domain/conduct/rows.ts)
 * and makes ConductLines only when read. Held here against the plainest model: an
 * array per key of the lines as given, the oldest dropped past the bound.
 */

const ROUTES: Array<[string, string]> = [
  ['GET', '/v1/buyer/key'],
  ['GET', '/v1/runs/:id'],
  ['POST', '/v1/custody/quotes'],
  ['POST', '/v1/custody/quotes/:id/accept'],
];
const KEYS = ['k1', 'k2', 'k3'];

const lineArb: fc.Arbitrary<NewConductLine> = fc
  .record({
    keyId: fc.constantFrom(...KEYS),
    route: fc.constantFrom(...ROUTES),
    atMs: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    realMs: fc.nat(10_000_000),
    status: fc.option(fc.constantFrom(200, 201, 202, 400, 404, 429, 500, 503), { nil: null }),
    answered: fc.boolean(),
    latency: fc.boolean(),
    fault: fc.option(fc.constantFrom(...FAULT_KINDS), { nil: null }),
    target: fc.constantFrom('T1', 'T2', 'T3', 'a1b2c3d4e5f60718', '/v1/buyer/key'),
    bodyHash: fc.option(fc.constantFrom('B1', 'B2'), { nil: undefined }),
    idempotencyKeyHash: fc.option(fc.constantFrom('K1', 'K2'), { nil: undefined }),
    reservedAtomic: fc.option(fc.constantFrom('1', '8160000000000000'), { nil: undefined }),
    runTerminal: fc.option(fc.boolean(), { nil: undefined }),
    retryAfterSeconds: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  })
  .map((r) => {
    const chaos: ChaosKind[] = [...(r.latency ? (['latency'] as const) : []), ...(r.fault ? [r.fault] : [])];
    const line: NewConductLine = {
      keyId: r.keyId,
      method: r.route[0],
      route: r.route[1],
      group: groupOf(r.route[0], r.route[1]),
      at: new Date(r.atMs).toISOString(),
      realMs: r.realMs,
      status: r.status,
      answered: r.answered,
      chaos,
      target: r.target,
    };
    for (const field of ['bodyHash', 'idempotencyKeyHash', 'reservedAtomic', 'runTerminal', 'retryAfterSeconds'] as const) {
      if (r[field] !== undefined) (line as unknown as Record<string, unknown>)[field] = r[field];
    }
    return line;
  });

/**
 * The model: every line kept as given, with its position, the oldest of a key dropped
 * past `perKey`; past `keysTracked` keys, the key first seen goes, with its lines.
 */
function model(lines: NewConductLine[], perKey: number, keysTracked = Infinity): Map<string, ConductLine[]> {
  const byKey = new Map<string, ConductLine[]>();
  lines.forEach((line, i) => {
    if (!byKey.has(line.keyId) && byKey.size >= keysTracked) byKey.delete(byKey.keys().next().value as string);
    const kept = byKey.get(line.keyId) ?? [];
    kept.push({ ...line, seq: i + 1 });
    byKey.set(line.keyId, kept.slice(-perKey));
  });
  return byKey;
}

describe('the conduct log in rows of numbers', () => {
  it('gives back exactly the lines recorded, oldest first, the oldest dropped past the bound (property)', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 300 }), fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 8 }), (lines, perKey, compactFrom) => {
        const log = new ConductLog({ linesPerKey: perKey, targetsBeforeCompacting: compactFrom });
        for (const line of lines) log.record(line);
        const expected = model(lines, perKey);
        expect(log.keys().sort()).toEqual([...expected.keys()].sort());
        for (const [key, kept] of expected) expect(log.linesOf(key)).toEqual(kept);
      }),
      { numRuns: 300 },
    );
  });

  it('keys interleaved, dropped past the keys tracked and seen again, each keep exactly their own lines (property)', () => {
    // The log keeps the last key's rows at hand: a key dropped and seen again, or a reset, must not write to old rows.
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 200 }), fc.integer({ min: 1, max: 3 }), fc.nat(200), (lines, keysTracked, resetAt) => {
        const log = new ConductLog({ linesPerKey: 20, keysTracked });
        lines.forEach((line, i) => {
          if (i === resetAt) log.clear();
          log.record(line);
        });
        const kept = resetAt < lines.length ? lines.slice(resetAt) : lines;
        const expected = model(kept, 20, keysTracked);
        expect(log.keys()).toEqual([...expected.keys()]);
        for (const [key, rows] of expected) expect(log.linesOf(key)).toEqual(rows);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps targets right when the target table is compacted and lines still name old ones', () => {
    const log = new ConductLog({ linesPerKey: 3, targetsBeforeCompacting: 2 });
    const at = (target: string, keyId = 'k1'): NewConductLine => ({ keyId, method: 'GET', route: '/v1/runs/:id', group: 'read', at: '2026-01-01T00:00:00.000Z', realMs: 0, status: 200, answered: true, chaos: [], target });
    for (const target of ['A', 'B', 'C', 'D', 'E', 'F', 'G']) log.record(at(target));
    log.record(at('A', 'k2'));
    expect(log.linesOf('k1').map((l) => l.target)).toEqual(['E', 'F', 'G']);
    expect(log.linesOf('k2').map((l) => l.target)).toEqual(['A']);
  });

  it('drops the key first seen, with its lines, past the keys tracked; a reset empties it and numbers lines from 1', () => {
    const log = new ConductLog({ keysTracked: 2 });
    const line = (keyId: string): NewConductLine => ({ keyId, method: 'GET', route: '/v1/buyer/key', group: 'read', at: '2026-01-01T00:00:00.000Z', realMs: 0, status: 200, answered: true, chaos: [], target: '/v1/buyer/key' });
    for (const keyId of ['k1', 'k2', 'k1', 'k3']) log.record(line(keyId));
    expect(log.keys()).toEqual(['k2', 'k3']);
    expect(log.linesOf('k1')).toEqual([]);
    log.clear();
    expect(log.keys()).toEqual([]);
    log.record(line('k1'));
    expect(log.linesOf('k1').map((l) => l.seq)).toEqual([1]);
  });

  it('shows a hashed target (kept as two numbers) as the first 16 hex digits of its hash, whatever compaction does to the table', () => {
    const log = new ConductLog({ targetsBeforeCompacting: 1 });
    const routeId = log.routeId('GET', '/v1/runs/:id', 'read');
    const facts = { keyId: 'k1', routeId, atMs: 0, realMs: 5, status: 200, answered: true, chaosBits: 0, runTerminal: 1, extras: null };
    log.recordFacts({ ...facts, targetId: 0, targetHashed: true, targetHigh: 0x0a1b2c3d, targetLow: 0xfffffffe });
    for (const t of ['x', 'y', 'z']) log.recordFacts({ ...facts, targetId: log.targetId(t), targetHashed: false, targetHigh: 0, targetLow: 0 });
    log.recordFacts({ ...facts, targetId: 0, targetHashed: true, targetHigh: 0, targetLow: 7 });
    expect(log.linesOf('k1').map((l) => l.target)).toEqual(['0a1b2c3dfffffffe', 'x', 'y', 'z', '0000000000000007']);
    expect(log.linesOf('k1')[0]).toMatchObject({ route: '/v1/runs/:id', runTerminal: true, realMs: 5 });
  });
});
