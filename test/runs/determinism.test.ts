import { afterEach, describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { buy, script, stopAll, start, tokenInput, untilEnded } from './support.ts';

/**
 * The contract's --seed promise for runs: the same seed and the same requests
 * give byte-identical exports (ids, times, events, report, artifact id).
 */
afterEach(stopAll);

interface Exported {
  artifactId: string;
  body: string;
  billing: string;
  read: string;
}

/** One fixed session: three runs (scripted partial, c0de pending then reconciled, cancelled mid-way), every export read. */
async function session(s: TestSimulator): Promise<Exported[]> {
  const out: Exported[] = [];
  const scripted = await buy(s, 'solana_sol');
  await script(s, scripted.run.id, { outcome: 'partial', rpcCalls: 33, unconfirmedRpcCalls: 0, modelCostAtomic: '4242', durationSeconds: 37, coverageGaps: ['controls'] });
  const pending = await buy(s, 'local_custody', { input: tokenInput('c0de', 'base'), resultPolicy: 'canonical_metadata' });
  const cancelled = await buy(s, 'sim');
  await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 30 } });
  await s.json({ method: 'POST', url: `/v1/runs/${cancelled.run.id}/cancel`, key: cancelled.key });
  await untilEnded(s, scripted.run.id);
  await untilEnded(s, pending.run.id);
  await s.json({ method: 'POST', url: `/sim/runs/${pending.run.id}/reconcile`, body: { confirmed: true } });
  for (const p of [scripted, pending]) {
    const response = await s.request({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(response.statusCode).toBe(200);
    const billing = await s.request({ url: `${p.profile === 'local_custody' ? '/v1/custody' : '/v1/solana-custody'}/runs/${p.run.id}/billing`, key: p.key });
    const read = await s.request({ url: `/v1/runs/${p.run.id}`, key: p.key });
    out.push({ artifactId: String(response.headers['x-service-artifact-id']), body: response.body, billing: billing.body, read: read.body });
  }
  return out;
}

describe('determinism', () => {
  it('exports of the same runs are byte-identical across two simulators with the same seed and script', async () => {
    const a = await start({ seed: 42 });
    const b = await start({ seed: 42 });
    const first = await session(a);
    const second = await session(b);
    expect(first).toHaveLength(2);
    expect(second).toEqual(first);
    for (const e of first) expect(e.body.length).toBeGreaterThan(1000);
  });

  it('another seed gives other ids, so other bytes', async () => {
    const a = await start({ seed: 42 });
    const c = await start({ seed: 43 });
    const first = await session(a);
    const other = await session(c);
    expect(other[0].body).not.toBe(first[0].body);
    expect(other[0].artifactId).not.toBe(first[0].artifactId);
  });
});
