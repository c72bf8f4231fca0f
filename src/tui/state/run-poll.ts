import { isTerminal, pollDelayMs, type RunRead } from '../../client/index.ts';
import type { ConsoleState } from './console-state.ts';

/**
 * Spec 4.6: a live run is polled from about one second, backing off to about
 * ten, until terminal, while it is in view (the run screen shows it, help is
 * closed). The timer follows state: every new read, backoff step or change of
 * view re-arms it, as the screen's own effect did.
 */
interface Watched {
  isPolling: boolean;
  read: RunRead | null;
  pollIndex: number;
  runId: string | null;
}

const watched = (state: ConsoleState): Watched => {
  const { read, pollIndex, runId } = state.run;
  const status = read?.run.status;
  const isLive = status !== undefined && !isTerminal(status);
  return { isPolling: state.screen === 'run' && !state.isHelpOpen && runId !== null && isLive, read, pollIndex, runId };
};

const same = (a: Watched, b: Watched) => a.isPolling === b.isPolling && a.read === b.read && a.pollIndex === b.pollIndex && a.runId === b.runId;

export interface RunPoller {
  start(): void;
  stop(): void;
}

export function runPoller(
  get: () => ConsoleState,
  subscribe: (listener: (state: ConsoleState) => void) => () => void,
  poll: () => Promise<void>,
): RunPoller {
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last: Watched | null = null;

  const arm = (now: Watched) => {
    if (timer) clearTimeout(timer);
    timer = now.isPolling ? setTimeout(() => void poll(), pollDelayMs(now.pollIndex)) : null;
  };
  const follow = (state: ConsoleState) => {
    const now = watched(state);
    if (last && same(last, now)) return;
    last = now;
    arm(now);
  };

  return {
    start() {
      if (unsubscribe) return;
      unsubscribe = subscribe(follow);
      follow(get());
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (timer) clearTimeout(timer);
      timer = null;
      last = null;
    },
  };
}
