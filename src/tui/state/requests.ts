import type { SimRequestLogEntry } from '../../client/index.ts';
import { clampScroll } from './scroll.ts';
import type { SliceContext } from './call.ts';

export interface RequestsState {
  entries: SimRequestLogEntry[] | null;
  scroll: number;
}

export interface RequestsActions {
  loadRequests(): Promise<void>;
  scrollRequests(delta: number, maxScroll: number): void;
}

declare module './console-state.ts' {
  interface ConsoleData {
    requests: RequestsState;
  }
  interface ConsoleActions {
    requests: RequestsActions;
  }
}

export const emptyRequests = (): RequestsState => ({ entries: null, scroll: 0 });

/** The request log (control API): what the simulator answered, newest last. */
export function requestsActions({ set, get, call }: SliceContext): RequestsActions {
  return {
    async loadRequests() {
      if (!get().controlAvailable) return;
      const result = await call((c) => c.sim.requests(500));
      if (result.ok) set((s) => ({ requests: { ...s.requests, entries: result.value } }));
    },
    scrollRequests(delta, maxScroll) {
      set((s) => ({ requests: { ...s.requests, scroll: clampScroll(s.requests.scroll + delta, maxScroll) } }));
    },
  };
}
