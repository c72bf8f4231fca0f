/**
 * Which "now" the receiver judges timestamps by and the probe signs with.
 * Spec 6.2 measures a delivery's x-service-timestamp against the receiver's
 * own clock, and the simulator signs each attempt with the real time it is
 * sent (serve --webhook-time wall, the default), whatever its simulated clock
 * says: so both tools use the wall clock, as a receiver of the real service
 * does. A simulator started with `--webhook-time simulated` (scenarios,
 * recordings) signs with its simulated clock instead; `--sim-url URL` reads that
 * clock, from GET URL/sim/clock, once per delivery (it moves whenever someone
 * advances it), and falls back to the wall clock, saying so, when nothing answers.
 */

/** Where the README starts the simulator (`serve --port 4010`): the example --sim-url. */
export const README_SIM_URL = 'http://127.0.0.1:4010';

/** Given as --sim-url: the wall clock (the default, kept so that older command lines still run). */
export const WALL_CLOCK = 'none';

export interface ClockReading {
  seconds: number;
  /** Where `seconds` came from, for the printed line and the refusal message. */
  source: string;
}

/** The simulator whose clock to read: --sim-url; null (the wall clock) without it or with 'none'. */
export function simUrlOf(flag: string | undefined): string | null {
  return flag === undefined || flag === WALL_CLOCK ? null : flag;
}

const wall = (why: string): ClockReading => ({ seconds: Math.floor(Date.now() / 1000), source: `wall clock${why}` });

/** A clock read per call: the simulator's GET /sim/clock, or the wall clock when there is none or it cannot be read. */
export function clockFrom(simUrl: string | null, controlToken?: string): () => Promise<ClockReading> {
  if (!simUrl) return async () => wall('');
  const clockUrl = new URL('/sim/clock', simUrl);
  return async () => {
    try {
      const response = await fetch(clockUrl, { headers: controlToken ? { 'x-understudy-control-token': controlToken } : {}, signal: AbortSignal.timeout(2_000) });
      const now = response.ok ? Date.parse(((await response.json()) as { now?: unknown }).now as string) : Number.NaN;
      if (Number.isNaN(now)) return wall(` (${clockUrl} answered ${response.status} without a clock)`);
      return { seconds: Math.floor(now / 1000), source: `simulator clock at ${simUrl}` };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      return wall(` (no simulator at ${simUrl}: ${cause})`);
    }
  };
}
