/** What `startUnderstudy` takes: the flags of `understudy serve`, as options. */
export interface UnderstudyOptions {
  /** Seeds ids, secrets and every random choice (serve --seed); 1 by default. */
  seed?: string | number;
  /** 'test' (rehearsal) or 'production' (production refusals; no `sim` key); 'test' by default. */
  env?: 'test' | 'production';
  /**
   * 'frozen' moves only when advanced (the default here: a test's time is its
   * advances); 'realtime' follows the wall clock plus advances, as serve does.
   */
  clock?: 'frozen' | 'realtime';
  /**
   * What webhook attempts are signed with (serve --webhook-time): 'wall' (the
   * default) the real time each is sent, so a receiver judging x-service-timestamp
   * by its own clock accepts them on a frozen clock; 'simulated' the simulated clock.
   */
  webhookTime?: 'wall' | 'simulated';
  /** false lifts the request-rate limits (serve --limits off); run and spend limits stay. On by default. */
  limits?: boolean;
  /**
   * The store file (serve --store). By default a new store in a temporary
   * directory of its own, removed at stop(); a path given here is kept.
   */
  store?: string;
  /** Listen address; 127.0.0.1 by default. Anything but loopback requires a controlToken. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Every /sim request must then carry it (serve --control-token); the control client here does. */
  controlToken?: string;
  /**
   * Seeded network chaos on /v1 from the start (serve --chaos): 'calm', 'flaky', 'storm'
   * or a profile object (docs/drill.md). None by default; `control.setChaos` changes it.
   */
  chaos?: 'calm' | 'flaky' | 'storm' | Record<string, unknown>;
  /** The demo key `v1` uses; local_custody (the one with monitor scopes) by default. */
  profile?: 'local_custody' | 'solana_sol' | 'solana_usdc' | 'sim';
}
