import type { CaseCheck } from './check.ts';

/**
 * `case check` as text: the assumptions, every field side by side, the breaches, the verdict.
 * Lines rather than an ink-table: a table makes every row as wide as the longest value
 * (a billing notice, a contract hash) and has no place for a difference's `why:` line
 * under its field (README, "Built with").
 */
export function checkText(check: CaseCheck): string {
  const out: string[] = [`Case: run ${check.facts.runId || '(unknown)'} (${check.facts.outcome ?? 'outcome unknown'}), reproduced by scenario '${check.scenario.name}'`];
  if (check.assumptions.length) {
    out.push('', 'Assumed (not in the documents):');
    for (const a of check.assumptions) out.push(`  - ${a}`);
  }
  const width = Math.min(48, Math.max(5, ...check.rows.map((r) => r.field.length)));
  out.push('', `${'field'.padEnd(width)}  ${'verdict'.padEnd(9)}  customer | reproduction`);
  for (const row of check.rows) {
    out.push(`${row.field.padEnd(width)}  ${(row.equal ? 'equal' : 'DIFFERENT').padEnd(9)}  ${row.equal ? row.customer : `${row.customer} | ${row.reproduction}`}`);
    if (row.reason) out.push(`${''.padEnd(width)}  ${''.padEnd(9)}  why: ${row.reason}`);
  }
  if (check.breaches.length) {
    out.push('', "The customer's settlement breaks the contract:");
    for (const b of check.breaches) out.push(`  - ${b.field}: ${b.cite}: ${b.detail}`);
  }
  if (check.problems.length) {
    out.push('', 'The reproduction did not go as the documents say:');
    for (const p of check.problems) out.push(`  - ${p}`);
  }
  const differing = check.rows.filter((r) => !r.equal).length;
  out.push(
    '',
    check.agree
      ? `AGREE: all ${check.rows.length} fields equal; the service did what the contract says.`
      : `DISAGREE: ${differing} of ${check.rows.length} fields differ${check.breaches.length ? `, ${check.breaches.length} rule(s) broken` : ''}${check.problems.length ? `, ${check.problems.length} reproduction step(s) off` : ''}: escalate with the evidence above.`,
  );
  return `${out.join('\n')}\n`;
}
