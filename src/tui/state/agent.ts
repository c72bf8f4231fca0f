import type { AgentDetail } from '../../client/index.ts';
import type { SliceContext } from './call.ts';
import { clampScroll } from './scroll.ts';

export interface AgentState {
  listingId: string | null;
  detail: AgentDetail | null;
  isLoading: boolean;
  scroll: number;
}

export interface AgentActions {
  openSelectedAgent(): Promise<void>;
  scrollAgent(delta: number, maxScroll: number): void;
  openDemoAgent(): Promise<void>;
  loadAgent(listingId: string): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    agent: AgentState;
  }
  interface ConsoleActions {
    agent: AgentActions;
  }
}

/** The agent the demo quotes: spec 3.4's token research agent, the only one offering canonical_metadata. */
export const DEMO_AGENT_NAME = 'Token Research Agent';

/** The agent detail screen (spec 2.5). */
export function agentActions({ set, get, call, loading }: SliceContext): AgentActions {
  async function loadAgent(listingId: string) {
    set((s) => ({ agent: { ...s.agent, listingId, isLoading: true } }));
    const result = await call((c) => c.v1.getAgent(listingId));
    // The user may have opened another agent meanwhile.
    if (get().agent.listingId !== listingId) return;
    set((s) => ({ agent: { ...s.agent, isLoading: false, detail: result.ok ? result.value : s.agent.detail } }));
  }

  function openAgent(listingId: string) {
    set({ screen: 'agent', isHelpOpen: false, agent: { listingId, detail: null, isLoading: true, scroll: 0 } });
    return loadAgent(listingId);
  }

  return {
    loadAgent,

    async openSelectedAgent() {
      const { page, selected } = get().catalog;
      const summary = page?.agents[selected];
      if (!summary) return;
      await loading(() => openAgent(summary.listingId));
    },

    // One key from the catalog to the demo agent, so that the first quote is two keys away.
    openDemoAgent: () => loading(async () => {
      const result = await call((c) => c.v1.listAgents({ q: DEMO_AGENT_NAME, limit: 10 }));
      if (!result.ok) return;
      const found = result.value.agents.find((a) => a.name === DEMO_AGENT_NAME) ?? result.value.agents[0];
      if (!found) {
        set({ error: { code: 'console_error', message: `The catalog has no agent named ${DEMO_AGENT_NAME}.`, status: null } });
        return;
      }
      await openAgent(found.listingId);
    }),

    // The screen knows how many lines the detail wraps to, so it passes the bound.
    scrollAgent(delta, maxScroll) {
      set((s) => ({ agent: { ...s.agent, scroll: clampScroll(s.agent.scroll + delta, maxScroll) } }));
    },
  };
}

