import { afterAll, describe, expect, it } from 'vitest';
import { startUnderstudy, type Understudy } from '../../src/library/index.ts';
import { planText } from '../../src/drift/plan.ts';
import { probeSet } from '../../src/drift/probes/index.ts';
import { driftTable } from '../../src/drift/report.ts';
import { runDrift } from '../../src/drift/run.ts';
import { targetOf } from '../../src/drift/target.ts';

/** Issue 30: with a test-environment key (svc_test_), a probe that would change state there is skipped, and the report says so. */
let rehearsal: Understudy | undefined;
afterAll(async () => {
  await rehearsal?.stop();
});

describe('a test-environment key', () => {
  it('skips the monitor creation (it would create one there), says so in the plan and the report, and creates nothing', async () => {
    rehearsal = await startUnderstudy({ env: 'test', clock: 'realtime', seed: 3 });
    const key = rehearsal.keys.local_custody;
    expect(key.startsWith('svc_test_')).toBe(true);
    const target = targetOf(rehearsal.url, key);
    expect(planText(target.url, probeSet('t'), target.testEnvironment)).toContain('the monitor creation is skipped (a test-environment key would create one)');
    const report = await runDrift({ target });
    const creation = report.probes.find((p) => p.id === 'monitor-create-refused')!;
    expect(creation).toMatchObject({ verdict: 'could not be compared', reason: 'skipped: a test-environment key (svc_test_) would create a monitor there' });
    expect(creation.service).toBeUndefined();
    expect(driftTable(report)).toContain('A test-environment key (svc_test_): probes that would change state there were skipped.');
    const monitors = await (await fetch(`${rehearsal.url}/v1/monitors`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(monitors).toEqual({ monitors: [] });
    // The other monitor probes are reads, and were sent.
    expect(report.probes.find((p) => p.id === 'monitors-list')!.service).toBe(200);
  });
});
