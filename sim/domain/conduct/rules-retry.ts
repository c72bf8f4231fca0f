import type { ConductLine } from './line.ts';
import { describe, failedRetryably, gapMs, judged, nextSame, type ConductRule, type Evidence } from './rule.ts';

/** Part 7: the reference client's first wait is 250 ms; a wait under 80 % of it is no backoff at all. */
export const MIN_BACKOFF_MS = 200;
/** Retries in a row without a success before a GET counts as retried without bound. */
export const MAX_RETRIES_IN_A_ROW = 8;
/** Part 7, 503: "later, not in a tight loop": at least a second before the same request. */
export const MIN_503_PAUSE_MS = 1000;
/** Slack for timer drift when comparing a wait with Retry-After. */
const RETRY_AFTER_SLACK = 0.9;

/**
 * A rule of the form "after this answer, wait at least so long before the same
 * request": exercised by every such answer, failed by a repeat that came sooner.
 */
function pauseRule(rule: Omit<ConductRule, 'judge'> & { after: (line: ConductLine) => boolean; minimumMs: (line: ConductLine) => number; asked: (line: ConductLine) => string }): ConductRule {
  const { after, minimumMs, asked, ...named } = rule;
  return {
    ...named,
    judge(lines) {
      const failures: Evidence[] = [];
      const passes: Evidence[] = [];
      let exercised = false;
      lines.forEach((line, i) => {
        if (!line.answered || !after(line)) return;
        exercised = true;
        const next = nextSame(lines, i);
        if (!next) return;
        const waited = gapMs(line, next);
        const note = `${describe(line)} ${asked(line)}; the same request came ${waited} ms later`;
        (waited < minimumMs(line) ? failures : passes).push({ note, lines: [line, next] });
      });
      return judged(exercised, failures, passes);
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

/** The retries of line i: the same request repeated while each previous attempt failed retryably. */
function retryChain(lines: readonly ConductLine[], i: number): ConductLine[] {
  const chain = [lines[i]];
  for (let j = i + 1; j < lines.length; j += 1) {
    const last = chain[chain.length - 1];
    if (lines[j].method !== last.method || lines[j].route !== last.route || lines[j].target !== last.target) continue;
    chain.push(lines[j]);
    if (!failedRetryably(lines[j])) break;
  }
  return chain;
}

export const getRetryRule: ConductRule = {
  id: 'get-retried-with-backoff',
  title: 'GETs are retried on network failure, 429 and 5xx other than 503, with backoff and a bounded count',
  spec: 'part 7 (any GET: "backoff on network failure, 429 and 5xx other than 503"; reference client: 250 ms doubling)',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    let exercised = false;
    // A chain is judged once, from its first failure.
    const inChain = new Set<number>();
    lines.forEach((line, i) => {
      if (line.method !== 'GET' || !failedRetryably(line) || inChain.has(line.seq)) return;
      exercised = true;
      const chain = retryChain(lines, i);
      chain.forEach((l) => inChain.add(l.seq));
      if (chain.length === 1) {
        failures.push({ note: `${describe(line)} and the GET was never sent again`, lines: chain });
        return;
      }
      const gaps = chain.slice(1).map((l, k) => gapMs(chain[k], l));
      // A 429's own wait is Retry-After's rule; only the others are held to the backoff floor.
      const tight = gaps.findIndex((gap, k) => chain[k].status !== 429 && gap < MIN_BACKOFF_MS);
      const retries = chain.length - 1;
      const fixed = gaps.length >= 3 && Math.max(...gaps) < Math.min(...gaps) * 1.25;
      if (tight !== -1) failures.push({ note: `retried ${gaps[tight]} ms after ${describe(chain[tight])}: under ${MIN_BACKOFF_MS} ms is no backoff`, lines: chain });
      else if (retries > MAX_RETRIES_IN_A_ROW) failures.push({ note: `retried ${retries} times in a row without a success (bound: ${MAX_RETRIES_IN_A_ROW})`, lines: chain });
      else if (fixed) failures.push({ note: `retried at a fixed interval (${gaps.join(', ')} ms): the waits do not grow`, lines: chain });
      else passes.push({ note: `${describe(line)}; retried ${retries} time(s) after ${gaps.join(', ')} ms`, lines: chain });
    });
    return judged(exercised, failures, passes);
  },
};

export const actionRetryRule: ConductRule = {
  id: 'actions-retried',
  title: 'Cancel, stop and acknowledge are retried after a lost answer',
  spec: 'part 7 (cancel run, stop monitor, acknowledge notification: safe to retry, "returns current state")',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    let exercised = false;
    lines.forEach((line, i) => {
      if (line.group !== 'action' || !failedRetryably(line)) return;
      exercised = true;
      const next = nextSame(lines, i);
      if (!next) failures.push({ note: `${describe(line)} and it was never sent again: the client does not know the state it left`, lines: [line] });
      else if (line.status !== 429 && gapMs(line, next) < MIN_BACKOFF_MS) failures.push({ note: `resent ${gapMs(line, next)} ms after ${describe(line)}: no pause`, lines: [line, next] });
      else passes.push({ note: `${describe(line)}; resent ${gapMs(line, next)} ms later`, lines: [line, next] });
    });
    return judged(exercised, failures, passes);
  },
};

/** Statuses part 7 says not to retry ("no"), or only after changing something (409). */
const REFUSED = new Set([400, 401, 403, 404, 409]);

export const refusalRule: ConductRule = {
  id: 'refusals-not-repeated',
  title: 'Refused requests (400, 401, 403, 404, 409) are not repeated unchanged',
  spec: 'part 7 (Retry: "no"; 409: "only after changing something")',
  judge(lines) {
    const failures: Evidence[] = [];
    let exercised = false;
    lines.forEach((line, i) => {
      if (line.status === null || !REFUSED.has(line.status) || !line.answered || line.chaos.some((kind) => kind !== 'latency')) return;
      exercised = true;
      const next = nextSame(lines, i);
      if (next && next.bodyHash === line.bodyHash && next.idempotencyKeyHash === line.idempotencyKeyHash) {
        failures.push({ note: `${describe(line)}, then the same request unchanged ${gapMs(line, next)} ms later`, lines: [line, next] });
      }
    });
    return judged(exercised, failures, []);
  },
};

export const rateLimitRule: ConductRule = {
  id: 'within-rate-limit',
  title: 'The key stays within its rate limit',
  spec: 'part 8 (requests per key, per client address, quote creation: "excess gives 429")',
  judge(lines) {
    // A chaos 429 is understudy's doing; an accept's own 429 is a run limit (4.5, 6), not a rate.
    const refused = lines.filter((l) => l.status === 429 && !l.chaos.includes('rate-limited') && l.group !== 'accept');
    const failures = refused.map((l) => ({ note: `${describe(l)}: refused for exceeding a request rate`, lines: [l] }));
    return judged(lines.length > 0, failures, []);
  },
};
