import { join } from 'node:path';
import { importCase } from './import.ts';
import type { CollectedCase } from './collect.ts';
import { waterfallInputOf } from './collect.ts';
import { recogniseDocument, type CaseDocument } from './documents.ts';
import { buildWaterfall, waterfallText } from './waterfall.ts';
import { writeNewFiles } from './new-files.ts';

/**
 * The evidence bundle of one run: receipt, export, billing, run and events,
 * the account's ledger lines for the run, the reproducing scenario and
 * summary.md. Everything is built in memory and searched for every secret
 * used to collect it before a single file is written; an existing bundle is
 * never overwritten unless `force` (and never through a link: new-files.ts).
 */
type Json = Record<string, unknown>;

export const BUNDLE_FILES = ['run.json', 'billing.json', 'receipt.json', 'export.json', 'ledger.json', 'scenario.json', 'summary.md'];

export class BundleError extends Error {}

/** The customer documents of a collected case, as `case import` would read them from the bundle. */
export function documentsOf(collected: CollectedCase, dir: string): CaseDocument[] {
  const docs: CaseDocument[] = [recogniseDocument(collected.run, join(dir, 'run.json')), recogniseDocument(collected.billing, join(dir, 'billing.json'))];
  if (collected.receipt) docs.push(recogniseDocument(collected.receipt, join(dir, 'receipt.json')));
  if (collected.export) docs.push(recogniseDocument(collected.export, join(dir, 'export.json')));
  return docs;
}

export function summaryOf(collected: CollectedCase, assumptions: string[]): string {
  const input = waterfallInputOf(collected);
  const waterfall = buildWaterfall(input);
  const run = input.run ?? {};
  const settlement = collected.billing.settlement as Json | null;
  const verdict = waterfall.checks.every((c) => c.ok) ? 'Every check of the money holds.' : `Checks that fail: ${waterfall.checks.filter((c) => !c.ok).map((c) => c.what).join('; ')}.`;
  const prose = [
    `# Run ${collected.runId}`,
    '',
    `The run ended **${String(run.status)}** after ${String(run.rpcUsed ?? 0)} blockchain reads; its billing is **${String(collected.billing.status)}**` +
      (settlement ? ` with ${String(settlement.chargedAtomic)} atomic charged.` : '.'),
    waterfall.rule ? `The rule that decided the charge: ${waterfall.rule.cite}: "${waterfall.rule.says}".` : '',
    verdict,
    '',
    '## The money, part by part',
    '',
    '```',
    waterfallText(input, waterfall).trimEnd(),
    '```',
    '',
    '## The reproduction',
    '',
    '`scenario.json` replays this run on a fresh simulator (`npx understudy case check` on this directory runs it and compares).',
    assumptions.length ? 'What the documents do not say and the reproduction chose:' : '',
    ...assumptions.map((a) => `- ${a}`),
    '',
    collected.ledger ? '`ledger.json` holds the account\'s ledger lines for this run.' : 'The ledger lines could not be read (no control API at this address).',
    '',
  ];
  return prose.filter((line, i, all) => !(line === '' && all[i - 1] === '')).join('\n');
}

export async function writeBundle(collected: CollectedCase, dir: string, options: { force?: boolean } = {}): Promise<string[]> {
  const { scenario, assumptions } = importCase(documentsOf(collected, dir));
  const files: Array<[string, string]> = [
    ['run.json', json(collected.run)],
    ['billing.json', json(collected.billing)],
    ...(collected.receipt ? [['receipt.json', json(collected.receipt)] as [string, string]] : []),
    ...(collected.export ? [['export.json', json(collected.export)] as [string, string]] : []),
    ...(collected.ledger ? [['ledger.json', json({ runId: collected.runId, entries: collected.ledger })] as [string, string]] : []),
    ['scenario.json', json(scenario)],
    ['summary.md', summaryOf(collected, assumptions)],
  ];
  for (const [name, text] of files) {
    for (const secret of collected.secrets) if (secret && text.includes(secret)) throw new BundleError(`${name} would hold a key secret; nothing was written`);
  }
  const paths = files.map(([name, text]) => [join(dir, name), text] as [string, string]);
  await writeNewFiles(paths, { flag: '--out', force: options.force }, dir);
  return paths.map(([path]) => path);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
