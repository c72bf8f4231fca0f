import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waterfallInputOf, type CollectedCase } from '../../src/case/collect.ts';
import { buildWaterfall } from '../../src/case/waterfall.ts';
import { cli } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { nothingAnswered } from '../../src/cli/explain.ts';
import { DEFAULT_URL } from '../../src/cli/case-target.ts';
import { playAndCollect } from './support.ts';

const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** Point 3: `understudy explain RUN_ID --url U`, the money waterfall of one run, read over HTTP. */
async function explainOver(file: string): Promise<Array<{ code: number | null; stdout: string; stderr: string }>> {
  const cwd = await mkdtemp(join(tmpdir(), 'understudy-explain-'));
  const outputs: Array<{ code: number | null; stdout: string; stderr: string }> = [];
  try {
    await playAndCollect(file, async (url) => {
      const runs = (await (await fetch(`${url}/sim/runs`)).json()) as { runs: Array<{ id: string }> };
      for (const run of runs.runs) outputs.push(await cli(['explain', run.id, '--url', url], cwd, { ...process.env, UNDERSTUDY_KEY: '' }));
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
  return outputs;
}

describe('understudy explain', () => {
  it('with nothing answering, names the address it tried, where that came from, and the --url form', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const runId = '6f1c2a5e-0000-4000-8000-000000000001';
    const env: NodeJS.ProcessEnv = { ...process.env, UNDERSTUDY_KEY: '' };
    delete env.UNDERSTUDY_URL;
    const flagged = await cli(['explain', runId, '--url', nowhere], ROOT_DIR, env);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toMatch(new RegExp(`^understudy: nothing answered at ${nowhere} \\(--url\\): GET /sim/runs/${runId} failed before an answer arrived \\(ECONNREFUSED\\)\\.\\n`));
    expect(flagged.stderr).toContain(`Start the simulator there (npm run serve), or name the one that ran the run: understudy explain ${runId} --url http://HOST:PORT\n`);
    const fromEnv = await cli(['explain', runId], ROOT_DIR, { ...env, UNDERSTUDY_URL: nowhere });
    expect(fromEnv.stderr).toContain(`nothing answered at ${nowhere} ($UNDERSTUDY_URL)`);
    // The default address (whatever this machine runs there): the same words, naming it.
    expect(nothingAnswered(runId, DEFAULT_URL, 'the default address', 'GET /sim/runs/x failed before an answer arrived (ECONNREFUSED).')).toBe(
      `understudy: nothing answered at http://127.0.0.1:4010 (the default address): GET /sim/runs/x failed before an answer arrived (ECONNREFUSED).\n` +
        `Start the simulator there (npm run serve), or name the one that ran the run: understudy explain ${runId} --url http://HOST:PORT\n`,
    );
  });

  it('a complete run: quote maximum, reservation, creator and platform fee, reads × rate, model cost, released; human units and atomic strings; every check ok', async () => {
    const [out] = await explainOver('fixtures/scenarios/01-complete-report-charged.json');
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const text = out.stdout;
    expect(text).toContain("Rule: spec 3.3, row 'Complete report satisfying the result contract'");
    expect(text).toContain('quote maximum: 0.00816 ETH (8160000000000000 atomic)');
    expect(text).toContain("creator fee (the creator's credit): 0.0045 ETH (4500000000000000 atomic)");
    expect(text).toContain('platform fee (feeBps 1000 of the creator fee): 0.0005 ETH (500000000000000 atomic)');
    expect(text).toContain('reads: 87 confirmed × 0.0000055 ETH (5500000000000 atomic): 0.0004785 ETH (478500000000000 atomic)');
    expect(text).toContain('model cost (AI analysis): 0.001875 ETH (1875000000000000 atomic)');
    expect(text).toContain('total charged: 0.0073535 ETH (7353500000000000 atomic)');
    expect(text).toContain('released to available: 0.0008065 ETH (806500000000000 atomic)');
    expect(text).toContain('ok   creator fee + platform fee + execution = total charged (4500000000000000 + 500000000000000 + 2353500000000000 = 7353500000000000, total 7353500000000000)');
    expect(text).toContain('ok   ledger: charge line + reconcile line = total charged');
    expect(text).not.toContain('FAIL');
  });

  it('a pending run: what is held, why (spec 3.3 row 5), and that the parts still sum', async () => {
    const [out] = await explainOver('fixtures/scenarios/08-unconfirmed-reads-billing-pending.json');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("held pending: 0.0000165 ETH (16500000000000 atomic)");
    expect(out.stdout).toContain("3 reads have no confirmed receipt: spec 3.3, row 'Blockchain read without confirmed receipt'");
    expect(out.stdout).toContain('reads: 84 confirmed');
    expect(out.stdout).toContain('ok   charged + held + released = reserved (7337000000000000 + 16500000000000 + 806500000000000 = 8160000000000000)');
  });

  it('a cancelled run charges execution only, citing the Cancelled row', async () => {
    const outs = await explainOver('fixtures/scenarios/06-cancel-while-running-execution-only.json');
    expect(outs.length).toBe(2);
    for (const out of outs) {
      expect(out.code).toBe(0);
      expect(out.stdout).toContain("not charged: spec 3.3, row 'Cancelled' says only execution already incurred, no creator fee");
      expect(out.stdout).toContain("creator fee (the creator's credit): 0 ETH (0 atomic)");
    }
  });

  it('parts that do not sum to the total fail the check', async () => {
    const [paid] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
    const edited: CollectedCase = JSON.parse(JSON.stringify(paid));
    (edited.billing.settlement as Record<string, string>).chargedAtomic = '7353500000000001';
    const checks = buildWaterfall(waterfallInputOf(edited)).checks;
    expect(checks.find((c) => c.what === 'creator fee + platform fee + execution = total charged')).toMatchObject({ ok: false });
    expect(checks.find((c) => c.what === 'ledger: charge line + reconcile line = total charged')).toMatchObject({ ok: false });
  });
});
