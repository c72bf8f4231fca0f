/**
 * Rolling-window request limits on the virtual clock (spec 8). Windows are
 * memory only: a restart forgets them, as a production limiter would.
 */
export const WINDOW_MS = 60_000;

export class RollingWindows {
  private windows = new Map<string, number[]>();

  /**
   * Counts a request in `bucket` when fewer than `limit` fall in the last
   * minute; otherwise refuses it (uncounted) with the seconds until a slot frees.
   */
  take(bucket: string, limit: number, nowMs: number): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    let times = this.windows.get(bucket);
    if (!times) this.windows.set(bucket, (times = []));
    let drop = 0;
    while (drop < times.length && times[drop] <= nowMs - WINDOW_MS) drop += 1;
    if (drop > 0) times.splice(0, drop);
    if (times.length >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((times[0] + WINDOW_MS - nowMs) / 1000));
      return { allowed: false, retryAfterSeconds };
    }
    times.push(nowMs);
    return { allowed: true };
  }

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
