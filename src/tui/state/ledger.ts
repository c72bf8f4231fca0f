import type { SimLedgerEntry } from '../../client/index.ts';
import { clampScroll } from './scroll.ts';
import type { SliceContext } from './call.ts';

export interface LedgerState {
  entries: SimLedgerEntry[] | null;
  scroll: number;
}

export interface LedgerActions {
  loadLedger(): Promise<void>;
  scrollLedger(delta: number, maxScroll: number): void;
}

declare module './console-state.ts' {
  interface ConsoleData {
    ledger: LedgerState;
  }
  interface ConsoleActions {
    ledger: LedgerActions;
  }
}

export const emptyLedger = (): LedgerState => ({ entries: null, scroll: 0 });

/** The ledger history (control API): the account's lines, newest last. */
export function ledgerActions({ set, get, call }: SliceContext): LedgerActions {
  return {
    async loadLedger() {
      const { controlAvailable, accountId } = get();
      if (!controlAvailable || !accountId) return;
      await get().actions.shell.loadAccount();
      const result = await call((c) => c.sim.ledger(accountId));
      if (result.ok) set((s) => ({ ledger: { ...s.ledger, entries: result.value } }));
    },
    scrollLedger(delta, maxScroll) {
      set((s) => ({ ledger: { ...s.ledger, scroll: clampScroll(s.ledger.scroll + delta, maxScroll) } }));
    },
  };
}
