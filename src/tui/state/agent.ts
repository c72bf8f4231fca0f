import type { SliceContext } from './call.ts';
import type { ConsoleActions } from './types.ts';

type AgentActions = Pick<ConsoleActions, 'openSelectedAgent' | 'scrollAgent'> & { loadAgent(listingId: string): Promise<void> };

/** The agent detail screen (spec 2.5). */
export function agentActions({ set, get, call }: SliceContext): AgentActions {
  async function loadAgent(listingId: string) {
    set((s) => ({ agent: { ...s.agent, listingId, isLoading: true } }));
    const result = await call((c) => c.v1.getAgent(listingId));
    // The user may have opened another agent meanwhile.
    if (get().agent.listingId !== listingId) return;
    set((s) => ({ agent: { ...s.agent, isLoading: false, detail: result.ok ? result.value : s.agent.detail } }));
  }

  return {
    loadAgent,

    async openSelectedAgent() {
      const { page, selected } = get().catalog;
      const summary = page?.agents[selected];
      if (!summary) return;
      set({ screen: 'agent', isHelpOpen: false, agent: { listingId: summary.listingId, detail: null, isLoading: true, scroll: 0 } });
      await loadAgent(summary.listingId);
    },

    // The screen knows how many lines the detail wraps to, so it passes the bound.
    scrollAgent(delta, maxScroll) {
      set((s) => ({ agent: { ...s.agent, scroll: Math.min(Math.max(0, maxScroll), Math.max(0, s.agent.scroll + delta)) } }));
    },
  };
}
