import type { ConductLine } from './line.ts';
import { describe, gapMs, judged, nextSame, type ConductRule, type Evidence } from './rule.ts';

/** Part 7, 503: "later, not in a tight loop": at least a second before the same request. */
export const MIN_503_PAUSE_MS = 1000;
/** Slack for timer drift when comparing a wait with Retry-After. */
const RETRY_AFTER_SLACK = 0.9;

/**
 * A rule of the form "after this answer, wait at least so long before sending the
 * same request again": exercised by each such answer whose request was sent again,
 * failed by a repeat that came sooner. A request never sent again asked for no wait.
 */
function pauseRule(rule: Omit<ConductRule, 'judge'> & { after: (line: ConductLine) => boolean; minimumMs: (line: ConductLine) => number; asked: (line: ConductLine) => string }): ConductRule {
  const { after, minimumMs, asked, ...named } = rule;
  return {
    ...named,
    judge(lines) {
      const failures: Evidence[] = [];
      const passes: Evidence[] = [];
      lines.forEach((line, i) => {
        if (!line.answered || !after(line)) return;
        const next = nextSame(lines, i);
        if (!next) return;
        const waited = gapMs(line, next);
        const note = `${describe(line)} ${asked(line)}; the same request came ${waited} ms later`;
        (waited < minimumMs(line) ? failures : passes).push({ note, lines: [line, next] });
      });
      return judged(failures, passes);
    },
  };
}

export const retryAfterRule = pauseRule({
  id: 'retry-after-honoured',
  title: 'Retry-After is honoured',
  spec: 'part 7 (429: "honour Retry-After when present"), part 8',
  after: (line) => line.status === 429 && line.retryAfterSeconds !== undefined,
  minimumMs: (line) => line.retryAfterSeconds! * 1000 * RETRY_AFTER_SLACK,
  asked: (line) => `asked for ${line.retryAfterSeconds} s`,
});

export const unavailableRule = pauseRule({
  id: 'no-tight-loop-on-503',
  title: 'No tight loop on 503',
  spec: 'part 7 (503: "later, not in a tight loop")',
  after: (line) => line.status === 503,
  minimumMs: () => MIN_503_PAUSE_MS,
  asked: () => `(at least ${MIN_503_PAUSE_MS} ms expected)`,
});
