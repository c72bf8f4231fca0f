import { lostAnswerLines, type SimConductReport as ConductReport } from '../client/conduct-report.ts';

const MARK = { pass: 'pass', fail: 'FAIL', 'not-exercised': '-' } as const;

/** The graded report as a terminal table: one row per rule, then the deciding evidence of each failure. */
export function reportTable(report: ConductReport): string {
  const rows = report.rules.map((r) => [MARK[r.verdict], r.id, r.spec.split(' (')[0]]);
  const widths = [4, Math.max(...rows.map((r) => r[1].length)), 0];
  const lines = [`Conduct report: score ${report.score}`, ''];
  lines.push(`${'VERDICT'.padEnd(widths[0] + 4)}${'RULE'.padEnd(widths[1] + 2)}SPEC`);
  for (const [mark, id, spec] of rows) lines.push(`${mark.padEnd(widths[0] + 4)}${id.padEnd(widths[1] + 2)}${spec}`);
  for (const rule of report.rules.filter((r) => r.verdict === 'fail')) {
    lines.push('', `${rule.id}: ${rule.title} (${rule.spec})`);
    for (const e of rule.evidence) lines.push(`  - ${e.note}`);
  }
  for (const { keyId, dropped } of report.truncated) lines.push('', `Key ${keyId}: its ${dropped} oldest lines were dropped (bound per key), so its rules were not judged.`);
  lines.push(...lostAnswerLines(report.lostAnswers));
  return `${lines.join('\n')}\n`;
}

