import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HANG_GUARD_MS } from '../helpers/wait.ts';

/** (f) The scenario command as a child process: exit status and --json output. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'scenario', ...args], { cwd: process.cwd(), timeout: HANG_GUARD_MS }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run scenario (src/cli/main.ts scenario)', () => {
  it('exits 1 for a wrong expectation (and a format error) and 0 for a passing scenario; --json prints parseable JSON', async () => {
    const [wrong, passing] = await Promise.all([
      cli(['test/scenarios/fixtures/wrong-expectation.json', 'test/scenarios/fixtures/format-error.json']),
      cli(['fixtures/scenarios/15-quote-expired.json', '--json']),
    ]);

    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('      FAIL body at settlement.chargedAtomic\n           expected "7353500000000001"\n           actual   "7353500000000000"');
    expect(wrong.stdout).toMatch(/^FAILED wrong-expectation: \d+ passed, 2 failed$/m);
    expect(wrong.stderr).toContain('test/scenarios/fixtures/format-error.json: steps[1].advance.seconds must be >= 0');

    expect(passing.code).toBe(0);
    const results = JSON.parse(passing.stdout) as Array<{ name: string; passed: boolean; steps: Array<{ checks: Array<{ ok: boolean }> }> }>;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: 'quote-expired', passed: true, file: 'fixtures/scenarios/15-quote-expired.json', seed: '25', env: 'test' });
    expect(results[0].steps.flatMap((s) => s.checks).every((c) => c.ok)).toBe(true);
  });
});
