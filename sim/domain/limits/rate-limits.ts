/**
 * Rolling-window request limits (spec 8). The windows roll on limiter time
 * (sim/runtime/clock.ts limiterTime), not on simulated time alone: a client
 * that waits out Retry-After in real time gets through even on a frozen clock.
 * Windows are memory only: a restart forgets them, as a production limiter would.
 */
export const WINDOW_MS = 60_000;

export class RollingWindows {
  private windows = new Map<string, number[]>();

  /** `toWindowTime` maps a simulated instant onto the time the windows roll on. */
  constructor(private readonly toWindowTime: (simMs: number) => number) {}

  /**
   * Counts a request made at simulated instant `nowMs` in `bucket` when fewer
   * than `limit` fall in the last minute; otherwise refuses it (uncounted) with
   * the whole seconds until a slot frees, rounded up so that waiting them is enough.
   */
  take(bucket: string, limit: number, nowMs: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const at = this.toWindowTime(nowMs);
    let times = this.windows.get(bucket);
    if (!times) this.windows.set(bucket, (times = []));
    let drop = 0;
    while (drop < times.length && times[drop] <= at - WINDOW_MS) drop += 1;
    if (drop > 0) times.splice(0, drop);
    if (times.length >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((times[0] + WINDOW_MS - at) / 1000));
      return { allowed: false, retryAfterSeconds };
    }
    times.push(at);
    return { allowed: true };
  }

  /** After a reset or an import: limiter time may have gone back, and nothing counted before is kept. */
  clear(): void {
    this.windows.clear();
  }
}

export const LIMITS = {
  perClientAddressPerMinute: 120,
  quoteCreationsPerAddressPerMinute: 10,
  monitorCreationsPerMinute: 10,
  activeRunsPerAccount: 3,
  runsPerAccountPer24h: 20,
  /** Spec 8: the platform-wide queue bound's value is not shown; this is the simulator's. */
  platformQueueBound: 500,
};
