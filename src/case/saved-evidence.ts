import { importCase } from './import.ts';
import { recogniseDocument, type CaseDocument } from './documents.ts';
import { type Profile } from './units.ts';
import { buildWaterfall, termsFromVersion, waterfallText } from './waterfall.ts';

/**
 * What turns the console's saved evidence (`w` on a run: the service's
 * answers as files) into an evidence bundle: the reproducing scenario and the
 * money waterfall for summary.md, computed from the very files saved, so
 * `case check FOLDER` reads the folder as a customer's documents.
 */
type Json = Record<string, unknown>;

export interface CaseParts {
  /** scenario.json's text, or null when the run cannot be reproduced yet (it has not ended). */
  scenario: string | null;
  /** Markdown sections for summary.md. */
  summary: string;
}

const CUSTOMER_FILES = ['run.json', 'billing.json', 'receipt.json', 'export.json'];

export function caseParts(files: Record<string, string>, runId: string, profile: string): CaseParts {
  const documents: CaseDocument[] = CUSTOMER_FILES.filter((name) => files[name] !== undefined).map((name) => recogniseDocument(JSON.parse(files[name]), name));
  const body = (kind: CaseDocument['kind']) => documents.find((d) => d.kind === kind)?.body ?? null;
  const runRead = body('run');
  const receipt = body('receipt');
  const exported = body('export');
  const ledger = files['ledger.json'] ? (JSON.parse(files['ledger.json']) as Json[]) : null;
  const lines: string[] = [];
  const billing = body('billing');
  if (runRead && billing) {
    const run = runRead.run as Json;
    const input = {
      runId,
      profile: profile as Profile,
      run,
      events: (runRead.events as unknown[]) ?? [],
      billing,
      quote: (receipt?.quote as Json | undefined) ?? termsFromVersion((exported?.version as Json | undefined) ?? null, profile as Profile, run.status, ledger?.find((l) => l.kind === 'reserve')?.amountAtomic),
      ledger,
    };
    lines.push('## The money, part by part', '', '```', waterfallText(input, buildWaterfall(input)).trimEnd(), '```', '');
  }
  let scenario: string | null = null;
  try {
    const reproduced = importCase(documents);
    scenario = `${JSON.stringify(reproduced.scenario, null, 2)}\n`;
    lines.push('## The reproduction', '', '`scenario.json` replays this run on a fresh simulator; `npx understudy case check` on this folder runs it and compares every billing, settlement and receipt field (docs/support.md).', '');
    for (const assumption of reproduced.assumptions) lines.push(`- assumed: ${assumption}`);
    lines.push('');
  } catch (error) {
    // A run that has not ended (or documents that cannot be read as a case) has no reproduction yet; the summary says why.
    lines.push('## The reproduction', '', `No scenario.json yet: ${(error as Error).message}`, '');
  }
  return { scenario, summary: lines.join('\n') };
}
