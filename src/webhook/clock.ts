/**
 * Which "now" the receiver judges timestamps by and the probe signs with.
 * Spec 6.2 measures a delivery's x-service-timestamp against the receiver's
 * clock, and the simulator stamps deliveries with its own (simulated) clock:
 * on a frozen or advanced clock the wall clock calls every delivery stale. So
 * both tools read the simulator's clock by default, once per delivery (the
 * clock moves between deliveries whenever someone advances it), and fall back
 * to the wall clock, saying so, when no simulator answers there.
 */

/** Where the README starts the simulator (`serve --port 4010`). */
export const README_SIM_URL = 'http://127.0.0.1:4010';

/** Given as --sim-url: judge by the wall clock only, as a receiver of the real service does. */
export const WALL_CLOCK = 'none';

export interface ClockReading {
  seconds: number;
  /** Where `seconds` came from, for the printed line and the refusal message. */
  source: string;
}

/** The simulator to ask: --sim-url, else UNDERSTUDY_SIM_URL, else the README's address; null for the wall clock. */
export function simUrlOf(flag: string | undefined, env: Record<string, string | undefined>): string | null {
  const chosen = flag ?? env.UNDERSTUDY_SIM_URL ?? README_SIM_URL;
  return chosen === WALL_CLOCK ? null : chosen;
}

const wall = (why: string): ClockReading => ({ seconds: Math.floor(Date.now() / 1000), source: `wall clock${why}` });

/** A clock read per call: the simulator's GET /sim/clock, or the wall clock when it cannot be read. */
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
