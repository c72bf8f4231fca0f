/** The clock and the wait the pacer uses: real ones in the command, the same in tests (no fake timers needed). */
export interface PacerTime {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realTime: PacerTime = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const MINUTE = 60_000;

/** Spec 8: quote creation 10 a minute per client address, 120 requests a minute per address. */
export const QUOTES_PER_MINUTE = 10;
export const REQUESTS_PER_ADDRESS_PER_MINUTE = 120;

/**
 * Keeps one side's requests inside the spec's rolling 60-second windows (spec 8):
 * the key's own rate (`rateLimitPerMinute`, known once the key is read; 60, the
 * default, until then), the client address's 120 and quote creation's 10. A
 * request waits until the oldest counted one leaves its window.
 */
export class Pacer {
  private readonly keyed: number[] = [];
  private readonly all: number[] = [];
  private readonly quotes: number[] = [];
  private keyRate = 60;

  constructor(private readonly time: PacerTime) {}

  /** The key's own limit, from GET /v1/buyer/key (1 to 600). */
  setKeyRate(perMinute: number): void {
    if (Number.isInteger(perMinute) && perMinute >= 1) this.keyRate = perMinute;
  }

  /** Waits for a free place in every window the request counts in, then counts it. */
  async slot(kind: { keyed: boolean; quote: boolean }): Promise<void> {
    for (;;) {
      const now = this.time.now();
      const wait = Math.max(
        waitIn(this.all, REQUESTS_PER_ADDRESS_PER_MINUTE, now),
        kind.keyed ? waitIn(this.keyed, this.keyRate, now) : 0,
        kind.quote ? waitIn(this.quotes, QUOTES_PER_MINUTE, now) : 0,
      );
      if (wait <= 0) break;
      await this.time.sleep(wait);
    }
    const now = this.time.now();
    this.all.push(now);
    if (kind.keyed) this.keyed.push(now);
    if (kind.quote) this.quotes.push(now);
  }
}

/** How long until the window (instants, oldest first) has room for one more under `limit`. */
function waitIn(window: number[], limit: number, now: number): number {
  while (window.length > 0 && window[0] <= now - MINUTE) window.shift();
  if (window.length < limit) return 0;
  // A few ms past the edge: the server's window and ours do not start at the same instant.
  return window[window.length - limit] + MINUTE - now + 50;
}
