import type { Pacer, PacerTime } from './pacer.ts';
import type { ProbeDef, SideContext } from './probes/index.ts';
import { exchange, type Exchange } from './wire.ts';

/** What one side gave for a probe: its answer, or why the probe was not sent there. */
export type SideOutcome = Exchange | { skip: string };

export const isSkip = (outcome: SideOutcome | undefined): outcome is { skip: string } => outcome !== undefined && 'skip' in outcome;

/** The longest Retry-After waited for; a longer one leaves the probe uncompared rather than stall the check. */
const LONGEST_WAIT_S = 60;
/** Spec 7's reference client: up to 2 retries. */
const RETRIES = 2;

/** Spec 7: Retry-After in whole seconds (or an HTTP date), or null. */
export function retryAfterSeconds(answer: Exchange, now: number): number | null {
  const value = answer.headers['retry-after'];
  if (value === undefined) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Sends the probe set to one side, in order, each probe built from what the
 * side has shown so far. Every request waits its turn in the side's rate
 * windows; a 429 is waited out (Retry-After) and the request sent again, except
 * a quote creation, which is never sent twice (spec 7).
 */
export async function runSide(options: { url: string; key: string; probes: ProbeDef[]; ctx: SideContext; pacer: Pacer; time: PacerTime; onAnswer?: (probe: ProbeDef, outcome: SideOutcome) => void }): Promise<Map<string, SideOutcome>> {
  const outcomes = new Map<string, SideOutcome>();
  for (const probe of options.probes) {
    const request = probe.request(options.ctx);
    let outcome: SideOutcome;
    if ('skip' in request) outcome = request;
    else {
      const quote = probe.kind === 'quote creation';
      let answer: Exchange;
      for (let attempt = 0; ; attempt += 1) {
        await options.pacer.slot({ keyed: request.keyed, quote });
        answer = await exchange(options.url, options.key, request, options.time.now);
        const wait = answer.status === 429 ? retryAfterSeconds(answer, options.time.now()) : null;
        if (quote || answer.status !== 429 || attempt >= RETRIES || wait === null || wait > LONGEST_WAIT_S) break;
        await options.time.sleep(Math.max(wait, 1) * 1000);
      }
      outcome = answer;
      if (probe.id === 'key' && answer.status === 200) {
        const rate = (answer.body as { key?: { rateLimitPerMinute?: unknown } }).key?.rateLimitPerMinute;
        if (typeof rate === 'number') options.pacer.setKeyRate(rate);
      }
      probe.learn?.(options.ctx, answer);
    }
    outcomes.set(probe.id, outcome);
    options.onAnswer?.(probe, outcome);
    // Every later probe is built on the key; a refused key would only collect refusals.
    if (probe.id === 'key' && !isSkip(outcome) && outcome.status !== 200) break;
  }
  return outcomes;
}
