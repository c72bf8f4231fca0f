import { describe, gapMs, judged, unanswered, type ConductRule, type Evidence } from './rule.ts';

/**
 * A quote creation sent again this soon after one that got no answer, with the same
 * body, is an automatic retry; creating another quote after a pause is what 4.3 asks
 * for after a lost answer ("Lost response: create another quote"). The wire cannot
 * tell intent, only time: a retry layer resends within a second (the reference
 * client's waits are 250 and 500 ms).
 */
export const AUTOMATIC_RETRY_WITHIN_MS = 1000;

/** 4.3: the situation is a quote creation that got no answer or a 5xx other than 503. */
export const quoteRule: ConductRule = {
  id: 'quote-creation-not-retried',
  title: 'Quote creation is never retried automatically',
  spec: '4.3 ("Quote creation is never retried by clients. Lost response: create another quote."), part 7',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    lines.forEach((line, i) => {
      if (line.group !== 'quote-create' || !unanswered(line)) return;
      const next = lines.slice(i + 1).find((l) => l.group === 'quote-create');
      if (next && next.bodyHash === line.bodyHash && gapMs(line, next) < AUTOMATIC_RETRY_WITHIN_MS) {
        failures.push({ note: `${describe(line)}; the same quote body was sent again ${gapMs(line, next)} ms later (an automatic retry)`, lines: [line, next] });
      } else passes.push({ note: `${describe(line)}; ${next ? `the next quote creation came ${gapMs(line, next)} ms later` : 'not sent again'}`, lines: next ? [line, next] : [line] });
    });
    return judged(failures, passes);
  },
};

/**
 * 4.4, part 7: an accept whose outcome the client cannot know (no answer, or a 5xx
 * other than 503) is retried with the same idempotencyKey, which returns the original
 * run and never reserves twice. It fails when the key's next accept carries another
 * idempotencyKey (the same quote, answered 409 quote_already_accepted if the first
 * had committed; or a new quote, which reserves again), or when no accept follows.
 * What such a lost answer cost is the report's lost-answer account, not this rule's.
 */
export const acceptRule: ConductRule = {
  id: 'accept-retried-with-same-key',
  title: 'An accept whose answer was lost is retried with the same idempotencyKey',
  spec: '4.4 ("The same request repeated returns 202 with the original run and reservation"), 4.5, part 7',
  judge(lines) {
    const failures: Evidence[] = [];
    const passes: Evidence[] = [];
    const accepts = lines.filter((l) => l.group === 'accept');
    accepts.forEach((line, i) => {
      if (!unanswered(line)) return;
      const next = accepts[i + 1];
      if (next === undefined) failures.push({ note: `${describe(line)}, and no accept followed: the client never learned what it bought`, lines: [line] });
      else if (next.idempotencyKeyHash !== line.idempotencyKeyHash) {
        const what = next.target === line.target ? 'the same quote' : 'another quote';
        const refused = next.status !== null && next.status >= 400 && next.status < 500 ? ` (answered ${next.status}: nothing reserved by it)` : '';
        failures.push({ note: `${describe(line)}; then ${what} was accepted with a new idempotencyKey${refused}`, lines: [line, next] });
      } else passes.push({ note: `${describe(line)}; retried ${gapMs(line, next)} ms later with the same idempotencyKey`, lines: [line, next] });
    });
    return judged(failures, passes);
  },
};
