import { buildWaterfall, termsFromVersion, type WaterfallInput } from '../../case/waterfall.ts';
import { money, type Profile } from '../../case/units.ts';
import type { RunState } from '../state/run.ts';
import { wrap } from '../text.ts';
import type { DetailLine } from './agent-lines.ts';

/**
 * `m` on a run: `understudy explain` in the console. The money waterfall of
 * the open run from what the run screen has read (run, billing, receipt,
 * export): each part in units and atomic strings with the rule that allowed
 * it, then the checks that the parts sum.
 */
type Json = Record<string, unknown>;

export function moneyLines(run: Pick<RunState, 'runId' | 'read' | 'billing' | 'receipt' | 'exported'>, profile: string | null, width: number): DetailLine[] {
  if (!run.read || !run.billing) return [{ text: 'The money needs the run and its billing: see the error line.', tone: 'muted' }];
  const owned = profile as Profile | null;
  const readRun = run.read.run as unknown as Json;
  const version = ((run.exported?.export as unknown as Json | undefined)?.version as Json | undefined) ?? null;
  const input: WaterfallInput = {
    runId: run.runId ?? String(readRun.id),
    profile: owned,
    run: readRun,
    events: run.read.events ?? [],
    billing: run.billing as unknown as Json,
    quote: ((run.receipt as unknown as Json | null)?.quote as Json | undefined) ?? termsFromVersion(version, owned, readRun.status, undefined),
    ledger: null,
  };
  const waterfall = buildWaterfall(input);
  const lines: DetailLine[] = [];
  if (waterfall.rule) wrap(`Rule: ${waterfall.rule.cite}: ${waterfall.rule.says}`, width).forEach((text) => lines.push({ text, tone: 'heading' }));
  for (const line of waterfall.lines) {
    const indent = '  '.repeat(line.depth);
    // Wrapped, never cut: the atomic string is what a support person compares.
    wrap(`${line.label}: ${line.atomic === null ? '(unknown)' : money(line.atomic, owned)}`, Math.max(10, width - indent.length - 2)).forEach((text, i) => lines.push({ text: `${indent}${i === 0 ? '' : '  '}${text}` }));
    wrap(line.why, Math.max(10, width - indent.length - 4)).forEach((text) => lines.push({ text: `${indent}    ${text}`, tone: 'muted' }));
  }
  lines.push({ text: '' });
  for (const check of waterfall.checks) wrap(`${check.ok ? 'ok  ' : 'FAIL'} ${check.what} (${check.detail})`, width).forEach((text) => lines.push({ text, tone: check.ok ? undefined : 'heading' }));
  return lines;
}
