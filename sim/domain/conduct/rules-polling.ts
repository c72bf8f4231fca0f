import type { ConductLine } from './line.ts';
import { gapMs, judged, type ConductRule, type Evidence } from './rule.ts';

/** 4.6: "starting at about one second": half of it is too soon. */
export const MIN_POLL_GAP_MS = 500;
/** A wait this long counts as having backed off towards ten seconds. */
const BACKED_OFF_MS = 8000;
/** The waits must grow by at least this factor from the first to the longest. */
const GROWTH = 1.5;

const RUN_READ = '/v1/runs/:id';

/**
 * 4.6: "Clients poll starting at about one second, backing off to about ten,
 * until the status is terminal." A poll is a read of the run after a read that
 * answered it was not terminal; reads after failures are retries (part 7), not polls.
 */
export const pollingRule: ConductRule = {
  id: 'polling-backs-off',
  title: 'Polling starts near 1 s, backs off towards 10 s, and stops at a terminal status',
  spec: '4.6 ("poll starting at about one second, backing off to about ten, until the status is terminal")',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    const reads = lines.filter((l) => l.method === 'GET' && l.route === RUN_READ);
    const runs = new Map<string, ConductLine[]>();
    for (const read of reads) runs.set(read.target, [...(runs.get(read.target) ?? []), read]);
    let exercised = false;
    for (const runReads of runs.values()) {
      const gaps: Array<{ from: ConductLine; to: ConductLine; ms: number }> = [];
      let terminalAt: ConductLine | null = null;
      for (let i = 0; i + 1 < runReads.length; i += 1) {
        const read = runReads[i];
        if (!read.answered || read.status !== 200) continue;
        if (read.runTerminal) {
          terminalAt ??= read;
          continue;
        }
        gaps.push({ from: read, to: runReads[i + 1], ms: gapMs(read, runReads[i + 1]) });
      }
      if (terminalAt) {
        const after = runReads.filter((l) => l.seq > terminalAt!.seq);
        if (after.length > 0) failures.push({ note: `the run was read ${after.length} more time(s) after it answered a terminal status`, lines: [terminalAt, ...after.slice(0, 3)] });
      }
      if (gaps.length === 0) continue;
      exercised = true;
      const ms = gaps.map((g) => g.ms);
      const tooSoon = gaps.find((g) => g.ms < MIN_POLL_GAP_MS);
      const grows = Math.max(...ms) >= BACKED_OFF_MS || Math.max(...ms) >= ms[0] * GROWTH;
      if (tooSoon) failures.push({ note: `polled again ${tooSoon.ms} ms after a non-terminal answer (about 1000 ms expected at first)`, lines: [tooSoon.from, tooSoon.to] });
      else if (gaps.length >= 3 && !grows) failures.push({ note: `polled at a fixed interval (${ms.join(', ')} ms): no backing off towards 10 s`, lines: gaps.slice(0, 4).map((g) => g.to) });
      else passes.push({ note: `polled after ${ms.join(', ')} ms`, lines: [gaps[0].from, ...gaps.map((g) => g.to)].slice(0, 6) });
    }
    return judged(exercised, failures, passes);
  },
};
