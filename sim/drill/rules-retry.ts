import type { ConductLine } from './line.ts';
import { describe, failed, gapMs, judged, nextSame, sameRequest, unanswered, type ConductRule, type Evidence } from './rule.ts';

/** Part 7: the reference client's first wait is 250 ms; a wait under 80 % of it is no backoff at all. */
export const MIN_BACKOFF_MS = 200;
/** Retries in a row without a success before a GET counts as retried without bound. */
export const MAX_RETRIES_IN_A_ROW = 8;

/** Line i's request and its retries: the same request sent again while each attempt before it failed. */
function retryChain(lines: readonly ConductLine[], i: number): ConductLine[] {
  const chain = [lines[i]];
  for (let j = i + 1; j < lines.length && failed(chain[chain.length - 1]); j += 1) {
    if (sameRequest(lines[j], lines[i])) chain.push(lines[j]);
  }
  return chain;
}

/**
 * Part 7, any GET: "backoff on network failure, 429 and 5xx other than 503", and the
 * reference client's 250 ms, doubling. Judged from each GET that got no answer or a
 * 5xx other than 503: it must be sent again, the first retry after at least 200 ms,
 * each further one in a row after a longer wait than the retry before it. Waits that
 * follow a 429 or a 503 in the chain are the other rules' (they are not compared here).
 */
export const getRetryRule: ConductRule = {
  id: 'get-retried-with-backoff',
  title: 'GETs that got no answer or a 5xx (not 503) are retried, with growing waits and a bounded count',
  spec: 'part 7 (any GET: "backoff on network failure, 429 and 5xx other than 503"; reference client: 250 ms, doubling)',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    // A chain is judged once, from its first attempt.
    const inChain = new Set<number>();
    lines.forEach((line, i) => {
      if (line.method !== 'GET' || inChain.has(line.seq) || !unanswered(line)) return;
      const chain = retryChain(lines, i);
      for (const l of chain) inChain.add(l.seq);
      if (chain.length === 1) {
        failures.push({ note: `${describe(line)}, and the GET was never sent again`, lines: chain });
        return;
      }
      // The backoff waits: those after an attempt that got no answer or a 5xx other than 503.
      const waits = chain.slice(1).flatMap((l, k) => (unanswered(chain[k]) ? [{ ms: gapMs(chain[k], l), after: chain[k] }] : []));
      const retries = chain.length - 1;
      const tooSoon = waits.length > 0 && waits[0].ms < MIN_BACKOFF_MS ? waits[0] : undefined;
      const notLonger = waits.findIndex((w, k) => k > 0 && w.ms <= waits[k - 1].ms);
      const shown = chain.slice(0, 10);
      if (tooSoon) failures.push({ note: `retried ${tooSoon.ms} ms after ${describe(tooSoon.after)}: a first retry waits at least ${MIN_BACKOFF_MS} ms`, lines: shown });
      else if (notLonger !== -1) failures.push({ note: `retried after ${waits.map((w) => w.ms).join(', ')} ms: retry ${notLonger + 1} in a row waited no longer than the one before (no backoff)`, lines: shown });
      else if (retries > MAX_RETRIES_IN_A_ROW) failures.push({ note: `retried ${retries} times in a row without an answer (bound: ${MAX_RETRIES_IN_A_ROW})`, lines: shown });
      else passes.push({ note: `${describe(line)}; retried ${retries} time(s), backoff waits ${waits.map((w) => w.ms).join(', ') || 'none judged here'} ms`, lines: shown });
    });
    return judged(failures, passes);
  },
};

/** Part 7: cancel, stop and acknowledge are safe to retry and return the current state. */
export const actionRetryRule: ConductRule = {
  id: 'actions-retried',
  title: 'Cancel, stop and acknowledge are sent again after no answer or a 5xx (not 503)',
  spec: 'part 7 (cancel run, stop monitor, acknowledge notification: safe to retry, "returns current state")',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    lines.forEach((line, i) => {
      if (line.group !== 'action' || !unanswered(line)) return;
      const next = nextSame(lines, i);
      if (!next) failures.push({ note: `${describe(line)}, and it was never sent again: the client does not know the state it left`, lines: [line] });
      else if (gapMs(line, next) < MIN_BACKOFF_MS) failures.push({ note: `sent again ${gapMs(line, next)} ms after ${describe(line)}: at least ${MIN_BACKOFF_MS} ms expected`, lines: [line, next] });
      else passes.push({ note: `${describe(line)}; sent again ${gapMs(line, next)} ms later`, lines: [line, next] });
    });
    return judged(failures, passes);
  },
};

/** Statuses part 7 says not to retry ("no"), or only after changing something (409). */
const REFUSED = new Set([400, 401, 403, 404, 409]);

/**
 * Part 7: refusals are not retried (409: "only after changing something"). The
 * situation is a refusal the service itself gave (not chaos); it fails when the key's
 * very next request is the same request unchanged (body and idempotency key), with no
 * clock move between (time moving is a change: a quote expires, a report appears).
 */
export const refusalRule: ConductRule = {
  id: 'refusals-not-repeated',
  title: 'Refused requests (400, 401, 403, 404, 409) are not sent again unchanged',
  spec: 'part 7 (Retry: "no"; 409: "only after changing something")',
  judge(lines, context) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    lines.forEach((line, i) => {
      if (line.status === null || !REFUSED.has(line.status) || !line.answered || line.chaos.some((kind) => kind !== 'latency')) return;
      const next = lines[i + 1];
      const unchanged = next !== undefined && sameRequest(line, next) && next.bodyHash === line.bodyHash && next.idempotencyKeyHash === line.idempotencyKeyHash;
      if (unchanged && !context.movedBetween(line.seq, next.seq)) failures.push({ note: `${describe(line)}, then the same request unchanged ${gapMs(line, next)} ms later`, lines: [line, next] });
      else passes.push({ note: `${describe(line)}; not sent again unchanged`, lines: next ? [line, next] : [line] });
    });
    return judged(failures, passes);
  },
};
