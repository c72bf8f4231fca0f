import type { ConductLine } from './line.ts';
import { describe, judged, type ConductRule, type Evidence } from './rule.ts';

const MINUTE_MS = 60_000;
/** Spec 8: quote creations per client address per minute. */
const QUOTES_PER_MINUTE = 10;

/** The most lines inside any rolling minute of simulated time (the windows spec 8 counts in), and where it ended. */
function busiestMinute(lines: readonly ConductLine[]): { count: number; last: ConductLine | null } {
  let best = { count: 0, last: null as ConductLine | null };
  let start = 0;
  const at = lines.map((l) => Date.parse(l.at));
  for (let end = 0; end < lines.length; end += 1) {
    while (at[end] - at[start] >= MINUTE_MS) start += 1;
    if (end - start + 1 > best.count) best = { count: end - start + 1, last: lines[end] };
  }
  return best;
}

/**
 * Spec 8: "excess gives 429". The situation is a key that came near its limits (its
 * busiest simulated minute at half its request limit or more, or half the quote
 * creations a minute allows) or was refused for a rate; it fails on such a refusal
 * (a chaos 429 is understudy's doing, an accept's 429 is a run limit, 4.5).
 */
export const rateLimitRule: ConductRule = {
  id: 'within-rate-limit',
  title: 'The key stays within its rate limits',
  spec: 'part 8 (requests per key, per client address, quote creation: "excess gives 429")',
  judge(lines, context) {
    const refused = lines.filter((l) => l.status === 429 && !l.chaos.includes('rate-limited') && l.group !== 'accept');
    const failures: Evidence[] = refused.map((l) => ({ note: `${describe(l)}: refused for exceeding a request rate`, lines: [l] }));
    const passes: Evidence[] = [];
    const busiest = busiestMinute(lines);
    const limit = context.rateLimitPerMinute;
    if (limit !== null && busiest.last && busiest.count * 2 >= limit) {
      passes.push({ note: `busiest simulated minute: ${busiest.count} requests, within the key's ${limit}`, lines: [busiest.last] });
    }
    const quotes = busiestMinute(lines.filter((l) => l.group === 'quote-create'));
    if (quotes.last && quotes.count * 2 >= QUOTES_PER_MINUTE) {
      passes.push({ note: `busiest simulated minute of quote creations: ${quotes.count}, within ${QUOTES_PER_MINUTE}`, lines: [quotes.last] });
    }
    return judged(failures, passes);
  },
};
