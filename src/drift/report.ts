import type { DriftReport } from './run.ts';
import type { ProbeResult } from './verdict.ts';

const MARK: Record<ProbeResult['verdict'], string> = { same: 'same', differs: 'DIFFERS', 'could not be compared': '-' };
const status = (value: number | undefined) => (value === undefined ? '-' : value === 0 ? 'none' : String(value));
const skewText = (seconds: number | null) => (seconds === null ? 'no Date header' : `${seconds >= 0 ? '+' : ''}${seconds} s`);

/**
 * The report on the terminal: a row per probe (verdict, statuses on both
 * sides), then each difference with both values and who answers for it, then
 * why any probe could not be compared, the clock skews and the score.
 */
export function driftTable(report: DriftReport): string {
  const idWidth = Math.max(5, ...report.probes.map((p) => p.id.length));
  const lines = [`Drift check: ${report.url} against the simulator (production environment)`, ''];
  lines.push(`${'VERDICT'.padEnd(10)}${'PROBE'.padEnd(idWidth + 2)}${'SERVICE'.padEnd(9)}${'SIMULATOR'.padEnd(11)}WHAT`);
  for (const p of report.probes) lines.push(`${MARK[p.verdict].padEnd(10)}${p.id.padEnd(idWidth + 2)}${status(p.service).padEnd(9)}${status(p.simulator).padEnd(11)}${p.title}`);
  const differing = report.probes.filter((p) => p.verdict === 'differs');
  if (differing.length > 0) lines.push('', 'Differences (service | simulator):');
  for (const p of differing) {
    lines.push(`  ${p.id}`);
    for (const d of p.differences) {
      lines.push(`    ${d.stated ? '!' : '~'} ${d.aspect} at ${d.where}: ${d.service} | ${d.simulator}`);
      lines.push(`      ${d.by}`);
    }
  }
  const uncompared = report.probes.filter((p) => p.verdict === 'could not be compared');
  if (uncompared.length > 0) lines.push('', 'Not compared:');
  for (const p of uncompared) lines.push(`  ${p.id}: ${p.reason}`);
  const { score, skew } = report;
  lines.push('', `Clock skew against this machine (Date headers, about ±1 s): service ${skewText(skew.service)}, simulator ${skewText(skew.simulator)}.`);
  if (report.testEnvironment) lines.push('A test-environment key (svc_test_): probes that would change state there were skipped.');
  lines.push(
    `Score: ${score.same} of ${score.same + score.differs} compared probes the same (${score.percentSame}%); ${score.differs} differ, ${score.couldNotCompare} not compared.`,
    `Differences stated by the spec: ${score.statedDifferences} (!); left open by the spec: ${score.openDifferences} (~).`,
  );
  if (report.failure) lines.push('', `The check could not run: ${report.failure}`);
  else lines.push(score.statedDifferences === 0 ? 'Nothing the spec states differs.' : 'The service differs from the simulator where the spec states the answer: see docs/drift.md.');
  return `${lines.join('\n')}\n`;
}
