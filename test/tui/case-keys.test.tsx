import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCase } from '../../src/case/check.ts';
import { readCaseDocuments } from '../../src/case/documents.ts';
import { startWiredConsole, temporaryFolder, type WiredConsole } from './wired-console.tsx';
import { acceptDemoQuote } from '../helpers/frames.ts';

/**
 * The case kit in the console (docs/support.md): `m` on a run shows its money
 * part by part (understudy explain), and the evidence `w` saves is a bundle
 * `case check` reads and agrees with.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function settledRun(): Promise<{ c: WiredConsole; dir: string; runId: string }> {
  const folder = await temporaryFolder();
  cleanups.push(folder.remove);
  const c = await startWiredConsole({ storePath: folder.storePath, seed: '1', env: 'test', clock: 'frozen' });
  cleanups.push(() => c.quit());
  await c.waitForFrame('Balances');
  await acceptDemoQuote(c);
  c.press('+', '+');
  await c.waitForFrame('succeeded · terminal');
  return { c, dir: folder.dir, runId: c.store.getState().run.runId! };
}

describe('the case kit in the console', () => {
  it('m on a settled run shows the waterfall: the rule, each part in units and atomic strings, and the checks', async () => {
    const { c } = await settledRun();
    expect(c.lastFrame()).toContain('m money: explain');
    c.press('m');
    await c.waitForFrame('money, part by part');
    const frame = await c.waitForFrame('Rule: spec 3.3');
    const charged = c.store.getState().run.billing!.settlement!.chargedAtomic;
    expect(frame).toContain("Rule: spec 3.3, row 'Complete report satisfying the result contract'");
    expect(frame).toContain('quote maximum:');
    expect(frame).toMatch(/creator fee \(the creator's credit\): [0-9.]+ ETH \([0-9]+ atomic\)/);
    // Scrolled to the end: the total and the checks that the parts sum.
    c.press('j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j', 'j');
    const end = await c.waitForFrame('creator fee + platform fee + execution = total charged');
    expect(end).toContain(`total ${charged})`);
    expect(end).not.toContain('FAIL');
  });

  it('the evidence w saves holds the reproducing scenario and the waterfall, and case check on the folder agrees', async () => {
    const { c, dir, runId } = await settledRun();
    c.press('w');
    await c.waitForFrame('✔ saved summary.md and 5 answers to');
    const folder = join(dir, 'evidence', `run-${runId}`);
    const check = await checkCase(await readCaseDocuments([folder]));
    expect(check.rows.filter((r) => !r.equal)).toEqual([]);
    expect(check.rows.length).toBeGreaterThan(60);
    expect(check.agree).toBe(true);
  });
});
