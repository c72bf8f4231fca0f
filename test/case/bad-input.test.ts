import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectedCase } from '../../src/case/collect.ts';
import { cli } from '../helpers/cli.ts';
import { playAndCollect } from './support.ts';

/**
 * Point 5: a file that is none of the documents, documents about runs of
 * different profiles or ids, and amounts that do not parse are refused by
 * `case import` and `case check`, naming the file and the field, exit 2, and
 * nothing is written.
 */
type Json = Record<string, any>;
let dir: string;
let paid: CollectedCase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-case-bad-'));
  [paid] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function file(name: string, value: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
  return name;
}

async function refused(args: string[], fileName: string, field: string) {
  for (const command of [['case', 'import', ...args, '--out', 'scenario.json'], ['case', 'check', ...args]]) {
    const before = await readdir(dir);
    const { code, stderr, stdout } = await cli(command, dir);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`${fileName}: ${field} `);
    expect(stderr).toContain('Nothing was written.');
    expect(await readdir(dir)).toEqual(before);
  }
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

describe('case import and check refuse bad input', () => {
  it('a JSON file that is none of the documents names the file', async () => {
    await refused([await file('agents.json', { agents: [], nextCursor: null })], 'agents.json', '(document)');
  });

  it('a file that is not JSON names the file', async () => {
    await refused([await file('mail.txt', 'Dear support, my run was charged twice.')], 'mail.txt', '(file)');
  });

  it('an amount that does not parse names the file and the field', async () => {
    const billing = clone(paid.billing) as Json;
    billing.settlement.chargedAtomic = '7353.5';
    await refused([await file('billing-float.json', billing)], 'billing-float.json', 'settlement.chargedAtomic');
    const receipt = clone(paid.receipt) as Json;
    receipt.quote.maximumBuyerDebitAtomic = 8160000000000000;
    await refused([await file('receipt-number.json', receipt)], 'receipt-number.json', 'quote.maximumBuyerDebitAtomic');
  });

  it('a receipt paid in another profile than the quote claims names the field', async () => {
    const receipt = clone(paid.receipt) as Json;
    receipt.payment.assetId = 'solana:mainnet-beta/native';
    receipt.quote.assetId = 'solana:mainnet-beta/native';
    const quote = { quote: clone((paid.receipt as Json).quote) };
    await refused([await file('quote.json', quote), await file('receipt-sol.json', receipt)], 'receipt-sol.json', 'payment.assetId');
  });

  it('an export whose version has no tariff in the profile the receipt claims names version.tariffs', async () => {
    const exported = clone(paid.export) as Json;
    exported.version.tariffs = exported.version.tariffs.filter((t: Json) => t.profile !== 'local_custody');
    await refused([await file('receipt.json', paid.receipt), await file('export-other.json', exported)], 'export-other.json', 'version.tariffs');
  });

  it('a billing alone cannot be reproduced: it names the listing it lacks', async () => {
    await refused([await file('billing-alone.json', paid.billing)], 'billing-alone.json', 'listingId');
  });

  it('documents about two different runs name the run id', async () => {
    const billing = clone(paid.billing) as Json;
    billing.runId = '0b7f1e52-3a4c-4d5e-8f60-718293a4b5c6';
    await refused([await file('receipt.json', paid.receipt), await file('billing-other-run.json', billing)], 'billing-other-run.json', 'runId');
  });
});
