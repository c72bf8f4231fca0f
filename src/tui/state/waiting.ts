import type { DisplayError } from './types.ts';
import type { RetryObserver, RetryWait } from '../../client/index.ts';
import type { SliceContext } from './call.ts';
import { toDisplayError } from './call.ts';
import type { ConsoleState } from './console-state.ts';

/** A call waiting out a Retry-After before its retry (src/client/retry.ts), shown with a countdown. */
export interface WaitingState {
  /** Distinct per wait, so the countdown restarts on the next one. */
  id: number;
  /** What is being retried, in words ('accepting the quote'). */
  what: string;
  /** The answer that is being waited out. */
  refusal: DisplayError;
  delayMs: number;
  retryIndex: number;
  /** Wall-clock seconds since this wait began, counted by the slice for the countdown. */
  elapsedSeconds: number;
}

export interface WaitingActions {
  /** Gives up the Retry-After wait in progress: the call fails with the refusal that caused it. */
  stopWaiting(): void;
  /** On a frozen clock, where waiting changes nothing: advance to the next event, then retry at once. */
  advanceAndRetry(): Promise<void>;
  /** Runs a client call whose Retry-After waits the console must show; the line goes when the call ends. */
  showingWaits<T>(what: string, call: (observe: RetryObserver) => Promise<T>): Promise<T>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    waiting: WaitingState | null;
  }
  interface ConsoleActions {
    waiting: WaitingActions;
  }
}

/**
 * Spec 8's request-rate windows (the two messages of spec 7): decisions.md
 * (Limits) rolls them on real time too, so waiting them out works on any
 * clock. Every other 429 (the run limits, the platform queue, a paused
 * listing) frees only when simulated time moves a run on.
 */
const REAL_TIME_FREES = /request rate limit|too many requests/i;

/** Waiting in real time cannot help: the clock is frozen and the refusal waits on simulated time. */
export function isWaitFutile(state: Pick<ConsoleState, 'clock' | 'waiting'>): boolean {
  const { clock, waiting } = state;
  return clock?.mode === 'frozen' && waiting !== null && !REAL_TIME_FREES.test(waiting.refusal.message);
}

/**
 * The wait before a retry (the client's Retry-After wait, src/client/retry.ts)
 * made visible: the waiting line counts it down, esc gives up, and on a
 * frozen clock `>` advances to the next event and retries at once.
 */
export function waitingActions({ set, get }: SliceContext): WaitingActions {
  let current: RetryWait | null = null;
  let waits = 0;
  let ticker: ReturnType<typeof setInterval> | null = null;

  function stopTicking() {
    if (ticker) clearInterval(ticker);
    ticker = null;
  }

  function end() {
    stopTicking();
    current = null;
    set({ waiting: null });
  }

  // The countdown is for the person watching, on the wall clock the client's wait runs on.
  function tick(id: number) {
    stopTicking();
    ticker = setInterval(() => {
      const waiting = get().waiting;
      if (waiting?.id === id) set({ waiting: { ...waiting, elapsedSeconds: waiting.elapsedSeconds + 1 } });
    }, 1000);
    // A wait still counting when the console quits must not hold the process open.
    ticker.unref?.();
  }

  return {
    async showingWaits(what, call) {
      const observe: RetryObserver = (wait) => {
        current = wait;
        const id = ++waits;
        set({ waiting: { id, what, refusal: toDisplayError(wait.error), delayMs: wait.delayMs, retryIndex: wait.retryIndex, elapsedSeconds: 0 } });
        tick(id);
      };
      try {
        return await call(observe);
      } finally {
        end();
      }
    },

    stopWaiting() {
      const wait = current;
      end();
      wait?.giveUp();
    },

    async advanceAndRetry() {
      const wait = current;
      if (!wait) return;
      await get().actions.shell.advanceToNextEvent();
      // Unless the wait ended meanwhile (elapsed, or given up).
      if (current !== wait) return;
      end();
      wait.retryNow();
    },
  };
}
