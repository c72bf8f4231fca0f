/**
 * The virtual clock: the only module that reads the wall clock.
 * realtime: simulated time = wall time + an offset that advancing grows.
 * frozen: simulated time moves only when advanced.
 * Time only moves forward, in both modes.
 */
export type ClockMode = 'realtime' | 'frozen';

export interface ClockState {
  mode: ClockMode;
  /** frozen: the current instant; realtime: the offset added to wall time. */
  valueMs: number;
}

export interface Clock {
  readonly mode: ClockMode;
  /** The simulated epoch (DEFAULT_EPOCH_MS): where a new frozen clock starts, and where the simulated chains' genesis blocks stand. */
  readonly epochMs: number;
  /** The simulated instant; in realtime mode one synchronous run of code reads one instant (createClock). */
  now(): number;
  nowIso(): string;
  /**
   * What advancing has added to simulated time, up to a constant: frozen, the
   * instant itself; realtime, the offset (wall time is the rest).
   */
  advancedMs(): number;
  /** Moves simulated time to `instantMs` (never backwards). */
  moveTo(instantMs: number): void;
  snapshot(): ClockState;
  restore(state: ClockState): void;
  /**
   * Runs `fn` at a given instant not after now: a scheduled job happens at its due
   * time even when the realtime ticker reaches it a moment late.
   */
  pinAt<T>(instantMs: number, fn: () => T): T;
  /** Real-time ticking for realtime mode: calls `onTick` periodically; returns a stop function. */
  startTicking(onTick: () => void, everyMs: number): () => void;
}

/** The simulated epoch a new store starts at in frozen mode. */
export const DEFAULT_EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');

export function wallNowMs(): number {
  return Date.now();
}

/** serve --webhook-time: which time a webhook attempt is signed with. */
export type WebhookTime = 'wall' | 'simulated';

/**
 * The instant a webhook attempt is signed with (x-service-timestamp). `wall`:
 * the real time it is sent, because a receiver following spec 6.2 judges the
 * timestamp against its own clock, and a frozen or advanced simulated clock is
 * far from it (Stripe's test clocks sign the same way); simulated time stays in
 * the payload and the delivery log. `simulated`: the simulated clock, so that
 * a scenario's transcript is byte-identical run after run.
 */
export function signingTime(clock: Pick<Clock, 'now'>, mode: WebhookTime): () => number {
  return mode === 'wall' ? wallNowMs : () => clock.now();
}

/** Milliseconds of real time from an arbitrary origin. */
export type RealTime = () => number;

/** Monotonic real time: unlike the wall clock it never steps (NTP, a user setting the date). */
export const monotonicMs: RealTime = () => performance.now();

/**
 * Limiter time (docs/decisions.md, Limits): what advancing has added to
 * simulated time plus real time. An advance and a real wait both move it by
 * their full length in either mode, so a wait measured on it is over once
 * advances and real waiting together have lasted that long: a frozen clock
 * cannot hold it still, nor, in realtime mode, a wall clock stepping back.
 * Real time is counted once: the
 * advanced part has no wall time in it. The returned function maps a simulated
 * instant at or before now (a request's, maybe pinned) onto limiter time, as
 * far before limiter now as it is before simulated now.
 */
export function limiterTime(clock: Clock, realTime: RealTime): (simMs: number) => number {
  return (simMs) => simMs - clock.now() + clock.advancedMs() + realTime();
}

export function createClock(state: ClockState): Clock {
  let current: ClockState = { ...state };
  let last = 0;
  let pinned: number | null = null;
  /**
   * Realtime: the instant read first in the synchronous run of code under way,
   * until it ends. Code that runs without yielding (a handler up to its first
   * await, with the hooks that lead into it; a job) happens at one instant, as
   * a frozen clock gives it: a quote's createdAt and expiresAt come from one
   * reading, and a recorded realtime session replays on a frozen clock.
   */
  let held: number | null = null;
  const release = () => {
    held = null;
  };
  const read = () => pinned ?? (current.mode === 'frozen' ? current.valueMs : Date.now() + current.valueMs);
  const clock: Clock = {
    get mode() {
      return current.mode;
    },
    epochMs: DEFAULT_EPOCH_MS,
    now() {
      if (pinned !== null) return pinned;
      if (held !== null) return held;
      // Wall clocks can step backwards; simulated time never does.
      const t = read();
      last = Math.max(last, t);
      if (current.mode === 'realtime') {
        held = last;
        queueMicrotask(release);
      }
      return last;
    },
    nowIso() {
      return new Date(clock.now()).toISOString();
    },
    advancedMs() {
      return current.valueMs;
    },
    moveTo(instantMs: number) {
      const target = Math.max(instantMs, clock.now());
      if (current.mode === 'frozen') current = { ...current, valueMs: target };
      else current = { ...current, valueMs: current.valueMs + (target - read()) };
      last = Math.max(last, target);
      // Moved on purpose: the next reading is the new instant, not the one held.
      held = null;
    },
    snapshot() {
      return { ...current };
    },
    restore(s: ClockState) {
      current = { ...s };
      last = 0;
      held = null;
    },
    pinAt(instantMs, fn) {
      const outer = pinned;
      // Never later than the (monotonic) present, nor than an enclosing pin.
      pinned = Math.min(instantMs, pinned ?? clock.now());
      try {
        return fn();
      } finally {
        pinned = outer;
      }
    },
    startTicking(onTick, everyMs) {
      const timer = setInterval(onTick, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return clock;
}

/** The initial clock state for a new store. */
export function initialClockState(mode: ClockMode): ClockState {
  return mode === 'frozen' ? { mode, valueMs: DEFAULT_EPOCH_MS } : { mode, valueMs: 0 };
}
