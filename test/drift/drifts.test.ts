import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Understudy } from '../../src/library/index.ts';
import { runDrift, exitCodeOf, type DriftReport } from '../../src/drift/run.ts';
import { targetOf } from '../../src/drift/target.ts';
import { jsonDrift, startDriftProxy, type Drift } from './drift-proxy.ts';
import { startStandIn } from './support.ts';

/**
 * Issue 30: a second simulator in production plays the service behind a proxy
 * that injects five known drifts. The report must find each of them, tag each
 * as the spec states it or as the simulator's choice, and report nothing else.
 */
const UUID_PATH = /^\/v1\/runs\/[0-9a-f-]{36}$/;

const DRIFTS: Drift[] = [
  // A renamed field: the page's `total` (spec 2.17) is called `count`.
  jsonDrift('renamed field', (m, u) => m === 'GET' && u.pathname === '/v1/public/agents' && u.searchParams.get('sort') === 'name' && u.searchParams.get('chain') === 'ethereum', (b) => {
    b.count = b.total;
    delete b.total;
  }),
  // A changed message: part 7 words "This run was not found.".
  jsonDrift('changed message', (m, u) => m === 'GET' && UUID_PATH.test(u.pathname), (b) => {
    b.error.message = 'No run with this id.';
  }),
  // An extra header: the description sent as no-store, which the simulator leaves cacheable (its choice).
  { name: 'extra header', matches: (m, u) => u.pathname === '/v1/openapi.json', apply: (a) => ({ ...a, headers: { ...a.headers, 'cache-control': 'no-store' } }) },
  // Another status: an unknown query parameter refused with 422 instead of spec 4.1's 400.
  jsonDrift('another status', (m, u) => m === 'GET' && u.pathname === '/v1/public/agents' && u.searchParams.has('colour'), () => {}, { status: 422 }),
  // A missing enum value: the description's run status without `cancelled` (spec 2.8).
  jsonDrift('missing enum value', (m, u) => u.pathname === '/v1/openapi.json', (b) => {
    const status = b.components.schemas.Run.properties.status;
    status.enum = status.enum.filter((v: string) => v !== 'cancelled');
  }),
];

let standIn: Understudy;
let proxy: Awaited<ReturnType<typeof startDriftProxy>>;
let report: DriftReport;

beforeAll(async () => {
  const started = await startStandIn();
  standIn = started.standIn;
  proxy = await startDriftProxy(standIn.url, DRIFTS);
  report = await runDrift({ target: targetOf(proxy.url, started.key) });
});

afterAll(async () => {
  await proxy?.close();
  await standIn?.stop();
});

const found = () =>
  report.probes.flatMap((p) => p.differences.map((d) => ({ probe: p.id, aspect: d.aspect, where: d.where, service: d.service, simulator: d.simulator, by: d.by })));

describe('drift check against a service with five known drifts', () => {
  it('sent every drifted request through the proxy', () => {
    expect([...new Set(proxy.applied)].sort()).toEqual(DRIFTS.map((d) => d.name).sort());
  });

  it('finds each injected drift, tagged, and nothing else', () => {
    expect(report.failure).toBeUndefined();
    expect(found().sort((a, b) => `${a.probe}${a.where}`.localeCompare(`${b.probe}${b.where}`))).toEqual([
      { probe: 'catalog-by-name', aspect: 'field', where: 'total', service: "named 'count'", simulator: "named 'total'", by: 'stated by the spec (part 2.17)' },
      { probe: 'catalog-unknown-parameter', aspect: 'status', where: 'status', service: '422', simulator: '400', by: 'stated by the spec (part 4.1)' },
      {
        probe: 'description',
        aspect: 'header',
        where: 'cache-control',
        service: 'no-store',
        simulator: '(absent)',
        by: 'left open by the spec: the simulator\'s choice (docs/decisions.md, entry no-store: "No-store")',
      },
      {
        probe: 'description',
        aspect: 'enum',
        where: 'description /components/schemas/Run/properties/status',
        service: 'queued, running, succeeded, failed',
        simulator: 'queued, running, succeeded, failed, cancelled',
        by: 'stated by the spec (part 9)',
      },
      { probe: 'run-unknown', aspect: 'message', where: 'error.message', service: 'No run with this id.', simulator: 'This run was not found.', by: 'stated by the spec (part 7)' },
    ]);
  });

  it('compares every other probe as the same, and says why the one it cannot compare was not', () => {
    const differing = report.probes.filter((p) => p.verdict === 'differs').map((p) => p.id).sort();
    expect(differing).toEqual(['catalog-by-name', 'catalog-unknown-parameter', 'description', 'run-unknown']);
    const uncompared = report.probes.filter((p) => p.verdict === 'could not be compared').map((p) => `${p.id}: ${p.reason}`);
    // The stand-in's key holds every scope, so no read is refused for a missing one.
    expect(uncompared).toEqual(['scope-missing: the key holds every scope that grants a read']);
    expect(report.score).toMatchObject({ differs: 4, couldNotCompare: 1, statedDifferences: 4, openDifferences: 1 });
    expect(report.score.same).toBe(report.probes.length - 5);
  });

  it('exits 1: something the spec states differs', () => {
    expect(exitCodeOf(report)).toBe(1);
  });
});
