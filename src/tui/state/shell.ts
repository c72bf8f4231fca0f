import type { ApiKey, SimAccountView, SimClock } from '../../client/index.ts';
import type { SliceContext } from './call.ts';
import type { ConsoleData } from './console-state.ts';
import type { SessionActions } from './session.ts';
import type { ConsoleKeyChoice, HeldKey, ConsoleService, DisplayError, Environment, Screen } from './types.ts';

/**
 * The shell: what every screen shares (the screen in view, help, the error
 * and notice lines, the clock, the key in use and its account) and the
 * console's timers, which actions start and stop, never views.
 */
declare module './console-state.ts' {
  interface ConsoleData {
    /** Whether the /sim control API may be used (embedded or local simulator); hidden against the real service. */
    controlAvailable: boolean;
    accountId: string | null;
    /** null when the console cannot tell (a remote service with an unfamiliar key prefix). */
    environment: Environment | null;
    service: ConsoleService | null;
    /** The keys to switch between (k on the Key screen); `keyIndex` is the one in use. */
    keys: Array<Pick<ConsoleKeyChoice, 'name' | 'profile' | 'secret'>>;
    keyIndex: number;
    /** Where the console keeps what it remembers between sessions (its runs per key); null when it keeps nothing. */
    memoryWhere: string | null;
    screen: Screen;
    isHelpOpen: boolean;
    /** Screen loads the user asked for, in flight (SliceContext.loading). */
    loading: number;
    /** Keys typed during a load, applied in order when it ends (keys/key-router.ts). */
    heldKeys: HeldKey[];
    error: DisplayError | null;
    /** A short confirmation of the last action (stopped, acknowledged, subscribed...). */
    notice: string | null;
    /** null until read, or when there is no control API to read it from. */
    clock: SimClock | null;
    /** Wall time, for countdowns against a remote service (no simulated clock there). */
    wallNow: string;
    key: ApiKey | null;
    account: SimAccountView | null;
  }
  interface ConsoleActions {
    shell: ShellActions;
  }
}

export interface ConsoleTimers {
  /** How often the clock bar rereads simulated time (realtime moves on its own; frozen when anyone advances it). */
  clockRefreshMs: number;
}

export interface ShellActions extends SessionActions {
  /** Reads the key, its balances and the clock, and starts the timers: the clock reread and the run poll. */
  start(timers?: Partial<ConsoleTimers>): Promise<void>;
  /** Stops the timers `start` started (the console is closing). */
  stop(): void;
  go(screen: Screen): void;
  toggleHelp(): void;
  closeHelp(): void;
  /** The notice describes the last action only: the next key clears it. */
  clearNotice(): void;
  refresh(): Promise<void>;
  /** Reloads what the current screen shows that time may have changed. */
  refreshTimeDependent(): Promise<void>;
  /** Uses the next of the console's keys: its account, runs and monitors replace the previous key's. */
  switchKey(): Promise<void>;
}

export interface ShellWiring {
  session: SessionActions;
  /** What each screen reads when it opens, on refresh (r) and after the clock moves. */
  loaders: Partial<Record<Screen, () => Promise<unknown>>>;
  /** The key, its balances, and the runs remembered for it. */
  loadHome(): Promise<void>;
  /** What the store does first on start (presenter mode, pointing the inbox at this key's destination). */
  onStart(): Promise<void>;
  /** The console's keys; `useKey` makes one current and returns the state that belongs to a fresh key. */
  keys: ConsoleKeyChoice[];
  useKey(index: number): Partial<ConsoleData>;
}

const DEFAULT_TIMERS: ConsoleTimers = { clockRefreshMs: 1000 };

export function shellActions({ set, get, loading }: SliceContext, wiring: ShellWiring): ShellActions {
  const { session, loaders, loadHome, keys } = wiring;
  let clockTimer: ReturnType<typeof setInterval> | null = null;

  return {
    ...session,

    async start(timers) {
      const { clockRefreshMs } = { ...DEFAULT_TIMERS, ...timers };
      if (clockTimer) clearInterval(clockTimer);
      clockTimer = setInterval(() => void session.refreshClock(), clockRefreshMs);
      get().actions.run.startPolling();
      await wiring.onStart();
    },

    stop() {
      if (clockTimer) clearInterval(clockTimer);
      clockTimer = null;
      get().actions.run.stopPolling();
    },

    async switchKey() {
      if (keys.length < 2) {
        set({ notice: 'the console holds only this key' });
        return;
      }
      const keyIndex = (get().keyIndex + 1) % keys.length;
      // The key goes with everything read through it, in the same update (the memory keeps runs per key).
      const { name, profile, accountId } = keys[keyIndex];
      set({ ...wiring.useKey(keyIndex), keyIndex, accountId, error: null, notice: `using ${name} (${profile})`, screen: 'home', isHelpOpen: false });
      await loadHome();
    },

    go(screen) {
      set({ screen, isHelpOpen: false });
      if (screen === 'catalog') {
        const { page, isLoading } = get().catalog;
        if (!page && !isLoading) void loading(() => get().actions.catalog.loadCatalog());
        return;
      }
      const load = loaders[screen];
      if (load) void loading(load);
    },

    toggleHelp() {
      set((s) => ({ isHelpOpen: !s.isHelpOpen }));
    },
    closeHelp() {
      set({ isHelpOpen: false });
    },
    clearNotice() {
      if (get().notice) set({ notice: null });
    },

    async refresh() {
      await loaders[get().screen]?.();
      await session.refreshClock();
    },

    async refreshTimeDependent() {
      const { screen } = get();
      // A moved clock restarts the run poll's backoff (spec 4.6): something may have happened.
      if (screen === 'run') set((s) => ({ run: { ...s.run, pollIndex: 0 } }));
      // The catalog, filters, quote and scenario screens do not change with time (the quote's countdown is computed).
      if (screen === 'catalog' || screen === 'agent') return;
      await loaders[screen]?.();
    },
  };
}
