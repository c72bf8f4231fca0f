import type { ClockAdvance } from '../../client/index.ts';
import type { SliceContext } from './call.ts';

export interface SessionActions {
  loadKey(): Promise<void>;
  loadAccount(): Promise<void>;
  refreshClock(): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  advanceToNextEvent(): Promise<void>;
}

const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** The key, the account's balances and the simulated clock: the reads of the shell slice (shell.ts). */
export function sessionActions({ set, get, call, client }: SliceContext, realtimeRereadMs: number): SessionActions {
  let rereading = false;
  let lastRereadMs = Number.NEGATIVE_INFINITY;
  async function advance(to: ClockAdvance) {
    if (!get().controlAvailable) return;
    const result = await call((c) => c.sim.advance(to));
    if (!result.ok) return;
    const { now, processed } = result.value;
    const kinds = new Map<string, number>();
    for (const job of processed) kinds.set(String(job.kind ?? 'job'), (kinds.get(String(job.kind ?? 'job')) ?? 0) + 1);
    const ran = processed.length === 0 ? 'no due jobs' : [...kinds].map(([kind, count]) => `${kind} ×${count}`).join(', ');
    set((s) => ({ clock: { now, mode: s.clock?.mode ?? 'frozen' }, notice: `clock → ${shortTime(now)} · ${ran}` }));
    // Due jobs may have moved runs, money, monitors and keys: reread what is on screen.
    await get().actions.shell.refreshTimeDependent();
  }

  return {
    // Both drop an answer that arrives after the key was switched: it describes the previous key.
    async loadKey() {
      const { keyIndex } = get();
      const result = await call((c) => c.v1.getKey());
      if (result.ok && get().keyIndex === keyIndex) set({ key: result.value });
    },

    async loadAccount() {
      const { controlAvailable, accountId } = get();
      if (!controlAvailable || !accountId) return;
      const result = await call((c) => c.sim.account(accountId));
      if (result.ok && get().accountId === accountId) set({ account: result.value });
    },

    // Polled every second: a failure here leaves the last reading in place
    // instead of taking over the error line from the user's own actions.
    async refreshClock() {
      if (!get().controlAvailable) {
        // No simulated clock against a remote service: countdowns use wall time.
        set({ wallNow: new Date().toISOString() });
        return;
      }
      try {
        const previous = get().clock;
        const clock = await client.sim.clock();
        set({ clock });
        // A frozen clock moved by someone else (a script, another console): reread what is on screen.
        if (previous && clock.mode === 'frozen' && previous.now !== clock.now) void get().actions.shell.refreshTimeDependent();
        // A realtime clock moves on its own: reread every `realtimeRereadMs` of it (one at a time). The
        // run screen polls with backoff instead (spec 4.6).
        const nowMs = Date.parse(clock.now);
        if (clock.mode === 'realtime' && get().screen !== 'run' && !rereading && nowMs - lastRereadMs >= realtimeRereadMs) {
          rereading = true;
          lastRereadMs = nowMs;
          void get()
            .actions.shell.refreshTimeDependent()
            .finally(() => {
              rereading = false;
            });
        }
      } catch {
        // The next tick tries again.
      }
    },

    advanceClock: (seconds) => advance({ seconds }),
    advanceToNextEvent: () => advance({ next: true }),
  };
}
