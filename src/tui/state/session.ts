import type { ConsoleActions } from './types.ts';
import type { SliceContext } from './call.ts';

type SessionActions = Pick<ConsoleActions, 'loadKey' | 'loadAccount' | 'refreshClock' | 'advanceClock'>;

/** The key, the account's balances and the simulated clock. */
export function sessionActions({ set, get, call, client }: SliceContext): SessionActions {
  return {
    async loadKey() {
      const result = await call((c) => c.v1.getKey());
      if (result.ok) set({ key: result.value });
    },

    async loadAccount() {
      const { controlAvailable, accountId } = get();
      if (!controlAvailable || !accountId) return;
      const result = await call((c) => c.sim.account(accountId));
      if (result.ok) set({ account: result.value });
    },

    // Polled every second: a failure here leaves the last reading in place
    // instead of taking over the error line from the user's own actions.
    async refreshClock() {
      if (!get().controlAvailable) return;
      try {
        set({ clock: await client.sim.clock() });
      } catch {
        // The next tick tries again.
      }
    },

    async advanceClock(seconds) {
      if (!get().controlAvailable) return;
      const result = await call((c) => c.sim.advance({ seconds }));
      if (!result.ok) return;
      set((s) => ({ clock: { now: result.value.now, mode: s.clock?.mode ?? 'frozen' } }));
      // Due jobs may have expired the key or moved money.
      await Promise.all([get().actions.loadKey(), get().actions.loadAccount()]);
    },
  };
}
