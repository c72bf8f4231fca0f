import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm run rehearse` end to end: the environment it hands the command, the table, the JSON report, the exit status. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-rehearse-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function rehearseCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'rehearse', ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A one-line client: reads its key, then asks twice, unchanged, for a run that does not exist. */
const CLIENT = `
const h = { authorization: 'Bearer ' + process.env.UNDERSTUDY_KEY };
const u = process.env.UNDERSTUDY_URL;
for (const name of ['UNDERSTUDY_URL','UNDERSTUDY_KEY','UNDERSTUDY_SOL_KEY','UNDERSTUDY_USDC_KEY','UNDERSTUDY_CONTROL_URL']) if (!process.env[name]) process.exit(3);
const key = await (await fetch(u + '/v1/buyer/key', { headers: h })).json();
if (key.key.profile !== 'local_custody') process.exit(4);
if (process.argv[1] === 'twice') for (let i = 0; i < 2; i++) await fetch(u + '/v1/runs/00000000-0000-4000-8000-000000000000', { headers: h });
`;

describe('npm run rehearse', () => {
  it('exits 0 when no rule failed, printing the table and writing the JSON report', async () => {
    const report = join(dir, 'ok.json');
    const result = await rehearseCli(['--report', report, '--', process.execPath, '--input-type=module', '-e', CLIENT, 'once']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Conduct report: score 100');
    // One read came nowhere near the key's limit: the rule was not exercised, and says so.
    expect(result.stdout).toMatch(/-\s+within-rate-limit\s+part 8/);
    const written = JSON.parse(await readFile(report, 'utf8'));
    expect(written.rules).toHaveLength(9);
    expect(written.rules.find((r: { id: string }) => r.id === 'within-rate-limit').verdict).toBe('not-exercised');
  });

  it('exits 1 when a rule failed, with the evidence', async () => {
    const result = await rehearseCli(['--report', join(dir, 'fail.json'), '--chaos', 'calm', '--', process.execPath, '--input-type=module', '-e', CLIENT, 'twice']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL\s+refusals-not-repeated/);
    expect(result.stdout).toContain('GET /v1/runs/:id → 404, then the same request unchanged');
  });

  it('refuses a missing command and a bad flag with a usage error', async () => {
    expect(await rehearseCli(['--chaos', 'storm'])).toMatchObject({ code: 2, stderr: expect.stringContaining("needs a command after '--'") });
    expect(await rehearseCli(['--chaos', 'hurricane', '--', 'true'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--chaos') });
  });
});
