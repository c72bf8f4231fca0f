import { AGENT_FILTER_NAMES, AGENT_FILTER_VALUES, type AgentFilters } from '../../client/index.ts';
import type { SliceContext } from './call.ts';

export interface FiltersEditorState {
  draft: AgentFilters;
  row: number;
}

export interface FilterActions {
  openFilters(): void;
  moveFilterRow(delta: number): void;
  cycleFilterValue(delta: number): void;
  clearFilterDraft(): void;
  applyFilters(): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    filters: FiltersEditorState;
  }
  interface ConsoleActions {
    filters: FilterActions;
  }
}

/** The filter editor: a draft of every spec 4.1 filter, applied in one request on ⏎. */
export function filterActions({ set, get }: SliceContext, loadFirstPage: (filters: AgentFilters) => Promise<unknown>): FilterActions {
  return {
    openFilters() {
      set((s) => ({ screen: 'filters', isHelpOpen: false, filters: { draft: { ...s.catalog.query.filters }, row: 0 } }));
    },

    moveFilterRow(delta) {
      set((s) => ({ filters: { ...s.filters, row: (s.filters.row + delta + AGENT_FILTER_NAMES.length) % AGENT_FILTER_NAMES.length } }));
    },

    // Each filter cycles through "any" (unset) and its allowed values.
    cycleFilterValue(delta) {
      set((s) => {
        const name = AGENT_FILTER_NAMES[s.filters.row];
        const choices: Array<string | undefined> = [undefined, ...AGENT_FILTER_VALUES[name]];
        const next = choices[(choices.indexOf(s.filters.draft[name]) + delta + choices.length) % choices.length];
        const draft = { ...s.filters.draft, [name]: next };
        if (next === undefined) delete draft[name];
        return { filters: { ...s.filters, draft } };
      });
    },

    clearFilterDraft() {
      set((s) => ({ filters: { ...s.filters, draft: {} } }));
    },

    async applyFilters() {
      const { draft } = get().filters;
      set({ screen: 'catalog' });
      await loadFirstPage(draft);
    },
  };
}
