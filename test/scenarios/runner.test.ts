import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { runScenario } from '../../src/scenario/runner.ts';
import { jsonTranscript, textTranscript } from '../../src/scenario/transcript.ts';

describe('transcripts', () => {
  it('(b) text and JSON transcripts are byte-identical across two runs (ports, receiver URLs and secrets redacted)', async () => {
    // A scenario with a local receiver and signing secrets: the parts that would differ between runs.
    const file = 'fixtures/scenarios/19-monitor-webhook-retries-failing-recovery.json';
    const scenario = await loadScenario(file);
    const first = await runScenario(scenario, file);
    const second = await runScenario(await loadScenario(file), file);
    expect(first.passed).toBe(true);
    const text = textTranscript(first);
    expect(textTranscript(second)).toBe(text);
    expect(JSON.stringify(jsonTranscript(second))).toBe(JSON.stringify(jsonTranscript(first)));
    // Nothing run-specific leaks: no port, no secret.
    expect(text).not.toMatch(/127\.0\.0\.1:\d+/);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9_-]{20,}/);
    expect(text).not.toMatch(/svc_test_[A-Za-z0-9_-]{43}/);
    expect(text).toContain('saved secret = "<redacted secret>"');
    expect(text).toContain('{{receivers.r.url}}');
    expect(JSON.stringify(jsonTranscript(first))).not.toMatch(/127\.0\.0\.1:\d+|whsec_|svc_test_[A-Za-z0-9_-]{43}/);
  });

  it('(c) a wrong expectation fails, and the transcript shows FAIL with the expected and actual values', async () => {
    const file = 'test/scenarios/fixtures/wrong-expectation.json';
    const result = await runScenario(await loadScenario(file), file);
    expect(result.passed).toBe(false);
    const failed = result.steps.flatMap((s) => s.checks.filter((c) => !c.ok).map((c) => ({ index: s.index, ...c })));
    expect(failed).toEqual([
      { index: 3, ok: false, what: 'body at settlement.chargedAtomic', expected: '7353500000000001', actual: '7353500000000000' },
      { index: 4, ok: false, what: 'balance acme local_custody chargedAtomic', expected: '1', actual: '7353500000000000' },
    ]);
    const text = textTranscript(result);
    expect(text).toContain(['      FAIL body at settlement.chargedAtomic', '           expected "7353500000000001"', '           actual   "7353500000000000"'].join('\n'));
    expect(text).toContain(['      FAIL balance acme local_custody chargedAtomic', '           expected "1"', '           actual   "7353500000000000"'].join('\n'));
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^FAILED wrong-expectation: \d+ passed, 2 failed$/);
    const json = jsonTranscript(result) as { passed: boolean; steps: Array<{ checks: Array<{ ok: boolean; expected?: unknown; actual?: unknown }> }> };
    expect(json.passed).toBe(false);
    expect(json.steps[3].checks.find((c) => !c.ok)).toMatchObject({ expected: '7353500000000001', actual: '7353500000000000' });
  });

  it('a step that cannot run (an unknown {{name}}) is an error that stops the scenario', async () => {
    const result = await runScenario(
      { name: 'unknown-reference', steps: [{ control: { method: 'GET', path: '/sim/runs/{{nothing}}' } }, { advance: { seconds: 1 } }] },
      'inline',
    );
    expect(result.passed).toBe(false);
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0].error).toBe('{{nothing}} has no value: no earlier step saved it');
    expect(textTranscript(result)).toContain('      ERROR {{nothing}} has no value: no earlier step saved it');
  });

  it('a refusal without an expect fails the step', async () => {
    const result = await runScenario({ name: 'unexpected-refusal', steps: [{ call: { method: 'GET', path: '/v1/buyer/key' } }] }, 'inline');
    expect(result.passed).toBe(false);
    expect(result.steps[0].checks).toEqual([{ ok: false, what: 'an unexpected refusal (add an expect to make it intended)', expected: '2xx', actual: 401 }]);
  });

  it("a call's headers are sent, and an error answer's headers can be expected", async () => {
    const result = await runScenario(
      {
        name: 'headers',
        accounts: { acme: { type: 'evm', keys: { eth: { profile: 'local_custody', spendLimitAtomic: '1' } } } },
        steps: [
          { call: { method: 'GET', path: '/v1/buyer/key', key: 'eth', headers: { Cookie: 'svc_session=x' } }, expect: { status: 400, header: { 'cache-control': 'no-store' } } },
          { call: { method: 'GET', path: '/v1/buyer/key', headers: { Authorization: 'Bearer svc_test_short' } }, expect: { status: 401 } },
          { call: { method: 'GET', path: '/v1/buyer/key', key: 'eth' }, expect: { status: 200 } },
        ],
      },
      'inline',
    );
    expect(result.steps.flatMap((s) => s.checks).filter((c) => !c.ok)).toEqual([]);
    expect(result.steps[0].request).toMatchObject({ headers: { Cookie: 'svc_session=x' } });
  });

  it('the wrong-expectation fixture is itself a valid scenario file', async () => {
    const text = await readFile('test/scenarios/fixtures/wrong-expectation.json', 'utf8');
    expect(JSON.parse(text).name).toBe('wrong-expectation');
  });
});
