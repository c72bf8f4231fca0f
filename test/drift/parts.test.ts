import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareShapes } from '../../src/drift/compare-shapes.ts';
import { DECISIONS } from '../../src/drift/decisions.ts';
import { Pacer, type PacerTime } from '../../src/drift/pacer.ts';
import { probeSet } from '../../src/drift/probes/index.ts';
import { quoteRelations, wrongHash } from '../../src/drift/probes/quotes.ts';
import { runSide } from '../../src/drift/side.ts';
import { AGENT_PAGE } from '../../src/drift/spec-fields.ts';
import { shapeOf } from '../../src/drift/shape.ts';
import { isLoopbackHost, targetOf, TargetError } from '../../src/drift/target.ts';
import type { Exchange } from '../../src/drift/wire.ts';
import { ROOT } from '../helpers/cli.ts';

/** A clock that moves only when the code under test waits: every wait is recorded, none is real. */
function fakeTime(): PacerTime & { waits: number[] } {
  let now = 1_000_000;
  const waits: number[] = [];
  return { waits, now: () => now, sleep: async (ms) => void (waits.push(ms), (now += ms)) };
}

describe('docs/decisions.json', () => {
  it('gives each choice a unique id and names an entry that docs/decisions.md holds', async () => {
    const text = await readFile(join(ROOT, 'docs/decisions.md'), 'utf8');
    expect(new Set(DECISIONS.map((d) => d.id)).size).toBe(DECISIONS.length);
    expect(DECISIONS.filter((d) => !text.includes(d.entry)).map((d) => d.id)).toEqual([]);
  });

  it('covers every decision a probe can name (building the probe set would throw otherwise)', () => {
    expect(() => probeSet('t')).not.toThrow();
  });
});

describe('the target', () => {
  it('accepts plain http for loopback hosts only', () => {
    for (const host of ['localhost', '127.0.0.1', '127.8.9.1', '[::1]', '::ffff:127.0.0.1', 'a.localhost']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.1', 'example.com', '0.0.0.0', '[::]', 'localhost.example.com']) expect(isLoopbackHost(host), host).toBe(false);
    const key = `svc_live_${'a'.repeat(43)}`;
    expect(targetOf('http://[::1]:4010/', key).url).toBe('http://[::1]:4010');
    expect(targetOf('https://service.example/base/', key)).toEqual({ url: 'https://service.example/base', key, testEnvironment: false });
    expect(targetOf('http://127.0.0.1:1', `svc_test_${'a'.repeat(43)}`).testEnvironment).toBe(true);
    expect(() => targetOf('http://service.example', key)).toThrow(TargetError);
    expect(() => targetOf('ftp://127.0.0.1', key)).toThrow(/https/);
    expect(() => targetOf('https://u:p@service.example', key)).toThrow(/user name/);
  });
});

describe('the pacer', () => {
  it("keeps the key's rate: the 4th request of a 3-a-minute key waits until the 1st leaves the window", async () => {
    const time = fakeTime();
    const pacer = new Pacer(time);
    pacer.setKeyRate(3);
    for (let i = 0; i < 4; i += 1) await pacer.slot({ keyed: true, quote: false });
    expect(time.waits).toHaveLength(1);
    expect(time.waits[0]).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps 10 quote creations a minute whatever the key allows', async () => {
    const time = fakeTime();
    const pacer = new Pacer(time);
    pacer.setKeyRate(600);
    for (let i = 0; i < 10; i += 1) await pacer.slot({ keyed: true, quote: true });
    expect(time.waits).toEqual([]);
    await pacer.slot({ keyed: true, quote: true });
    expect(time.waits).toHaveLength(1);
    await pacer.slot({ keyed: true, quote: false });
    expect(time.waits).toHaveLength(1);
  });
});

describe('a side under 429', () => {
  it('waits out Retry-After and sends a read again, but never sends a quote creation twice', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const first = seen.filter((s) => s === `${req.method} ${req.url}`).length === 1;
      if (first) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
        res.end('{"error":{"code":"request_rejected","message":"Too many requests. Try again shortly."}}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const time = fakeTime();
    const [read, quote] = [probeSet('t').find((p) => p.id === 'run-unknown')!, probeSet('t').find((p) => p.id === 'quote-unknown-listing')!];
    const ctx = { side: 'service' as const, unknownId: '00000000-0000-4000-8000-000000000000', testEnvironment: false, key: { profile: 'local_custody', scopes: [], rail: 'custody' as const, otherRail: 'solana-custody' as const } };
    const outcomes = await runSide({ url, key: `svc_live_${'a'.repeat(43)}`, probes: [read, quote], ctx, pacer: new Pacer(time), time });
    server.close();
    expect(seen).toEqual(['GET /v1/runs/00000000-0000-4000-8000-000000000000', 'GET /v1/runs/00000000-0000-4000-8000-000000000000', 'POST /v1/custody/quotes']);
    expect(time.waits).toEqual([7000]);
    expect((outcomes.get('run-unknown') as Exchange).status).toBe(200);
    expect((outcomes.get('quote-unknown-listing') as Exchange).status).toBe(429);
  });
});

describe('shapes and relations', () => {
  const page = (agent: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ agents: [agent], nextCursor: null, total: 1, sort: 'newest', environment: {}, ...extra });
  const agent = { listingId: '11111111-1111-4111-8111-111111111111', name: 'A', offers: [{ profile: 'sim', enabled: true }] };

  it('reports a field renamed once, a missing required field as stated, an extra field as open', () => {
    const { total, ...renamed } = page(agent);
    const found = compareShapes(AGENT_PAGE, shapeOf({ ...renamed, count: total }), shapeOf(page(agent)));
    expect(found.map((d) => [d.where, d.service, d.simulator, 'stated' in d.tag])).toEqual([['total', "named 'count'", "named 'total'", true]]);
    const extra = compareShapes(AGENT_PAGE, shapeOf(page({ ...agent, colour: 'red' })), shapeOf(page(agent)));
    expect(extra.map((d) => [d.where, 'open' in d.tag ? d.tag.open : ''])).toEqual([['agents[].colour', 'extra-fields']]);
  });

  it('compares ids by form, and says nothing about data that differs within what the spec allows', () => {
    expect(compareShapes(AGENT_PAGE, shapeOf(page({ ...agent, listingId: 'not-a-uuid' })), shapeOf(page(agent))).map((d) => d.aspect)).toEqual(['form']);
    expect(compareShapes(AGENT_PAGE, shapeOf(page(agent, { nextCursor: 'abc', agents: [] })), shapeOf(page(agent)))).toEqual([]);
  });

  it("checks a quote's relations against its own Date header", () => {
    const answer = (quote: Record<string, unknown>, date: string) => ({ status: 201, headers: { date }, body: { quote } }) as unknown as Exchange;
    const good = { grossCreatorFeeAtomic: '10', platformFeeAtomic: '1', creatorCreditAtomic: '9', feeBps: 1000, expiresAt: '2026-01-01T00:04:00.400Z' };
    expect(quoteRelations(answer(good, 'Thu, 01 Jan 2026 00:00:00 GMT'))).toEqual([]);
    expect(quoteRelations(answer({ ...good, creatorCreditAtomic: '8', feeBps: 900 }, 'Thu, 01 Jan 2026 00:00:10 GMT')).map((r) => r.split(':')[0])).toEqual(['fee split', 'feeBps', 'expiry']);
  });

  it('never makes the right hash', () => {
    for (const hash of ['0'.repeat(64), 'f'.repeat(64), `${'a'.repeat(63)}0`]) {
      expect(wrongHash(hash)).not.toBe(hash);
      expect(wrongHash(hash)).toMatch(/^[a-f0-9]{64}$/);
    }
  });
});
