import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBundle } from '../../src/case/bundle.ts';
import { checkCase } from '../../src/case/check.ts';
import { readCaseDocuments } from '../../src/case/documents.ts';
import { playAndCollect, shippedScenarioFiles } from './support.ts';

/**
 * Done when, point 1: every shipped scenario that settles or pends a billing
 * is exported as a bundle (`case export`), the bundle is read back as the
 * customer's documents (`case check DIR`), reproduced and compared; every
 * billing, settlement and receipt field agrees.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('case round trip over the shipped scenarios', async () => {
  const files = await shippedScenarioFiles();
  let casesSeen = 0;
  for (const file of files) {
    it(`${file}: each run that settles or pends is exported, imported and checked, every field equal`, { timeout: 300_000 }, async () => {
      const played = await playAndCollect(file);
      expect(played.passed).toBe(true);
      for (const collected of played.cases) {
        const dir = await mkdtemp(join(tmpdir(), 'understudy-case-'));
        dirs.push(dir);
        await writeBundle(collected, join(dir, 'bundle'));
        const check = await checkCase(await readCaseDocuments([join(dir, 'bundle')]));
        const differing = check.rows.filter((r) => !r.equal).map((r) => `${r.field}: ${r.customer} | ${r.reproduction}`);
        expect({ run: collected.runId, differing, problems: check.problems, breaches: check.breaches }).toEqual({ run: collected.runId, differing: [], problems: [], breaches: [] });
        // The billing is always compared; a settled run's receipt too.
        expect(check.rows.some((r) => r.field === 'settlement.chargedAtomic' || r.field === 'billing.status')).toBe(true);
        if (collected.billing.status === 'settled') expect(check.rows.filter((r) => r.field.startsWith('receipt.')).length).toBeGreaterThan(30);
        expect(check.agree).toBe(true);
        expect((await readdir(join(dir, 'bundle'))).sort()).toEqual(expect.arrayContaining(['billing.json', 'run.json', 'scenario.json', 'summary.md', 'ledger.json']));
      }
      casesSeen += played.cases.length;
    });
  }
  it('the round trip covered the runs of the billing scenarios (not an empty loop)', () => {
    // 01..12, 13, 16, 17, 21 and 24 end with runs that settle or pend.
    expect(casesSeen).toBeGreaterThanOrEqual(40);
  });
});
