import type { ConductLine } from './line.ts';
import { gapMs, judged, type ConductRule, type Evidence } from './rule.ts';

/** 4.6: "starting at about one second": half of it is too soon. */
export const MIN_POLL_GAP_MS = 500;
/** A wait this long counts as having backed off towards ten seconds. */
const BACKED_OFF_MS = 8000;
/** Over three polls or more, the longest wait must be at least this many times the first. */
const GROWTH = 1.5;

const RUN_READ = '/v1/runs/:id';

/**
 * 4.6: "Clients poll starting at about one second, backing off to about ten,
 * until the status is terminal." A poll is a read of a run after a read of it that
 * answered a status that is not terminal; a read after a failure is a retry (part 7),
 * and a read after simulated time was moved by hand is the client looking once at what
 * the move did, not a poll (the polls after it are paced from it).
 */
export const pollingRule: ConductRule = {
  id: 'polling-backs-off',
  title: 'Polling starts near 1 s, backs off towards 10 s, and stops at a terminal status',
  spec: '4.6 ("poll starting at about one second, backing off to about ten, until the status is terminal")',
  judge(lines, context) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    const runs = new Map<string, ConductLine[]>();
    for (const read of lines) if (read.method === 'GET' && read.route === RUN_READ) runs.set(read.target, [...(runs.get(read.target) ?? []), read]);
    for (const reads of runs.values()) {
      const terminal = reads.find((r) => r.answered && r.status === 200 && r.runTerminal === true);
      if (terminal) {
        const after = reads.filter((r) => r.seq > terminal.seq);
        if (after.length > 0) failures.push({ note: `the run was read ${after.length} more time(s) after it answered a terminal status`, lines: [terminal, ...after.slice(0, 3)] });
        else passes.push({ note: 'not read again after its terminal status', lines: [terminal] });
      }
      // Polls, in runs of polls: a clock move starts a new run of them.
      let series: Array<{ from: ConductLine; to: ConductLine; ms: number }> = [];
      const judgeSeries = () => {
        if (series.length === 0) return;
        const ms = series.map((g) => g.ms);
        const tooSoon = series.find((g) => g.ms < MIN_POLL_GAP_MS);
        const grows = Math.max(...ms) >= BACKED_OFF_MS || Math.max(...ms) >= ms[0] * GROWTH;
        if (tooSoon) failures.push({ note: `polled again ${tooSoon.ms} ms after a status that was not terminal (about 1000 ms expected at first)`, lines: [tooSoon.from, tooSoon.to] });
        else if (series.length >= 3 && !grows) failures.push({ note: `polled at a steady interval (${ms.join(', ')} ms): no backing off towards 10 s`, lines: series.slice(0, 4).map((g) => g.to) });
        else passes.push({ note: `polled after ${ms.join(', ')} ms`, lines: [series[0].from, ...series.map((g) => g.to)].slice(0, 6) });
        series = [];
      };
      for (let i = 0; i + 1 < reads.length; i += 1) {
        const read = reads[i];
        const next = reads[i + 1];
        if (!read.answered || read.status !== 200 || read.runTerminal !== false) continue;
        if (context.movedBetween(read.seq, next.seq)) {
          judgeSeries();
          continue;
        }
        series.push({ from: read, to: next, ms: gapMs(read, next) });
      }
      judgeSeries();
    }
    return judged(failures, passes);
  },
};
