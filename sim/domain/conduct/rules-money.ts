import type { ConductLine } from './line.ts';
import { describe, failedRetryably, gapMs, judged, type ConductRule, type Evidence } from './rule.ts';

/**
 * A quote creation sent again this soon after a failed one, with the same body,
 * is an automatic retry; creating another quote after a pause is what 4.3 asks
 * for after a lost answer ("Lost response: create another quote").
 */
export const AUTOMATIC_RETRY_WITHIN_MS = 1000;

export const quoteRule: ConductRule = {
  id: 'quote-creation-not-retried',
  title: 'Quote creation is never retried automatically',
  spec: '4.3 ("Quote creation is never retried by clients. Lost response: create another quote."), part 7',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    let exercised = false;
    lines.forEach((line, i) => {
      if (line.group !== 'quote-create' || !failedRetryably(line)) return;
      exercised = true;
      const next = lines.slice(i + 1).find((l) => l.group === 'quote-create');
      if (next && next.bodyHash === line.bodyHash && gapMs(line, next) < AUTOMATIC_RETRY_WITHIN_MS) {
        failures.push({ note: `${describe(line)}; the same quote body was sent again ${gapMs(line, next)} ms later`, lines: [line, next] });
      } else passes.push({ note: `${describe(line)}; not sent again automatically`, lines: next ? [line, next] : [line] });
    });
    return judged(exercised, failures, passes);
  },
};

/**
 * 4.4: "The same request repeated returns 202 with the original run and
 * reservation … and never reserves … twice." A client that loses an accept's
 * answer and accepts again under another idempotency key (the same quote, or a
 * new quote) may hold two reservations for one purchase.
 */
export const acceptRule: ConductRule = {
  id: 'accept-retried-with-same-key',
  title: 'An accept is retried only with the same idempotencyKey',
  spec: '4.4 ("The same request repeated returns 202 with the original run and reservation"), 4.5, part 7',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    let exercised = false;
    const accepts = lines.filter((l) => l.group === 'accept');
    accepts.forEach((line, i) => {
      if (!failedRetryably(line)) return;
      exercised = true;
      const later = accepts.slice(i + 1);
      const sameKey = later.find((l) => l.idempotencyKeyHash === line.idempotencyKeyHash);
      const otherKey = later.find((l) => l.idempotencyKeyHash !== line.idempotencyKeyHash);
      // Only what came before the client used the same key again counts against it.
      if (otherKey && (!sameKey || otherKey.seq < sameKey.seq)) {
        const orphaned = line.reservedAtomic !== undefined && !recovered(accepts, line);
        const doubled = orphaned && accepts.some((l) => l.seq > line.seq && l.reservedAtomic !== undefined && l.idempotencyKeyHash !== line.idempotencyKeyHash);
        const what = otherKey.target === line.target ? 'the same quote' : 'a new quote';
        const cost = doubled ? `; double reservation: ${line.reservedAtomic} atomic units were reserved by the lost accept as well` : '';
        failures.push({ note: `${describe(line)}; then ${what} was accepted with a new idempotencyKey${cost}`, lines: [line, otherKey] });
      } else if (sameKey) passes.push({ note: `${describe(line)}; retried ${gapMs(line, sameKey)} ms later with the same idempotencyKey`, lines: [line, sameKey] });
      else if (line.reservedAtomic !== undefined) {
        failures.push({ note: `${describe(line)} and it was never retried: ${line.reservedAtomic} atomic units stay reserved for a run the client never learned of`, lines: [line] });
      } else passes.push({ note: `${describe(line)}; nothing was reserved and the client did not accept again`, lines: [line] });
    });
    return judged(exercised, failures, passes);
  },
};

/** A lost accept whose idempotency key later reached the client with an answer: the client knows its run. */
function recovered(accepts: readonly ConductLine[], lost: ConductLine): boolean {
  return accepts.some((l) => l.seq > lost.seq && l.idempotencyKeyHash === lost.idempotencyKeyHash && l.answered && l.status === 202);
}

/** What the doubled reservations of a key cost: the lost accepts' reservations the client never recovered. */
export function doubleReservedAtomic(lines: readonly ConductLine[]): bigint {
  const accepts = lines.filter((l) => l.group === 'accept');
  let total = 0n;
  for (const line of accepts) {
    if (line.reservedAtomic === undefined || line.answered || recovered(accepts, line)) continue;
    if (accepts.some((l) => l.seq > line.seq && l.reservedAtomic !== undefined && l.idempotencyKeyHash !== line.idempotencyKeyHash)) total += BigInt(line.reservedAtomic);
  }
  return total;
}
