import { AGENT_SORTS, type AgentSort, type AgentFilters, type AgentPage } from '../../client/index.ts';
import type { SliceContext } from './call.ts';

export interface CatalogQueryState {
  q?: string;
  sort: AgentSort;
  filters: AgentFilters;
}

export interface CatalogState {
  query: CatalogQueryState;
  page: AgentPage | null;
  /** cursors[i] is the cursor that loads page i (undefined for the first page). */
  cursors: Array<string | undefined>;
  pageIndex: number;
  /** The limit sent with every page request. */
  pageSize: number;
  selected: number;
  isLoading: boolean;
  /** The search text being typed; null when not typing. */
  searchDraft: string | null;
}

export interface CatalogActions {
  loadCatalog(): Promise<void>;
  nextPage(): Promise<void>;
  previousPage(): Promise<void>;
  moveSelection(delta: number): void;
  cycleSort(): Promise<void>;
  clearQuery(): Promise<void>;
  startSearch(): void;
  typeSearch(text: string): void;
  eraseSearch(): void;
  cancelSearch(): void;
  submitSearch(): Promise<void>;
  /** Loads one page of `query`; the query becomes current only if the service accepts it. */
  loadPage(query: CatalogQueryState, pageIndex: number, cursor: string | undefined): Promise<boolean>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    catalog: CatalogState;
  }
  interface ConsoleActions {
    catalog: CatalogActions;
  }
}

export const emptyCatalog = (pageSize: number): CatalogState => ({
  query: { sort: 'newest', filters: {} },
  page: null,
  cursors: [undefined],
  pageIndex: 0,
  pageSize,
  selected: 0,
  isLoading: false,
  searchDraft: null,
});

/** The catalog browser: GET /v1/public/agents with search, filters, sort and cursor paging (spec 4.1). */
export function catalogActions({ set, get, call }: SliceContext): CatalogActions {
  // Pages answered out of order (quick n n p) must not overwrite a newer one.
  let latestRequest = 0;

  const patch = (partial: Partial<CatalogState>) => set((s) => ({ catalog: { ...s.catalog, ...partial } }));

  async function loadPage(query: CatalogQueryState, pageIndex: number, cursor: string | undefined): Promise<boolean> {
    const request = ++latestRequest;
    patch({ isLoading: true });
    const result = await call((c) => c.v1.listAgents({ ...query.filters, q: query.q, sort: query.sort, limit: get().catalog.pageSize, cursor }));
    if (request !== latestRequest) return false;
    if (!result.ok) {
      patch({ isLoading: false });
      return false;
    }
    const previous = get().catalog;
    const samePage = previous.pageIndex === pageIndex && previous.query === query;
    patch({
      query,
      page: result.value,
      pageIndex,
      cursors: [...previous.cursors.slice(0, pageIndex), cursor],
      selected: samePage ? Math.min(previous.selected, Math.max(0, result.value.agents.length - 1)) : 0,
      isLoading: false,
    });
    return true;
  }

  const firstPage = (query: CatalogQueryState) => loadPage(query, 0, undefined);

  return {
    loadPage,

    async loadCatalog() {
      const { query, pageIndex, cursors } = get().catalog;
      await loadPage(query, pageIndex, cursors[pageIndex]);
    },

    // Spec 4.1 rule 1: the next page is the nextCursor sent back with the same filters and sort.
    async nextPage() {
      const { page, query, pageIndex } = get().catalog;
      if (!page?.nextCursor) return;
      await loadPage(query, pageIndex + 1, page.nextCursor);
    },

    // Cursors only go forward, so going back re-sends the cursor remembered for that page.
    async previousPage() {
      const { query, pageIndex, cursors } = get().catalog;
      if (pageIndex === 0) return;
      await loadPage(query, pageIndex - 1, cursors[pageIndex - 1]);
    },

    moveSelection(delta) {
      const { page, selected } = get().catalog;
      const last = Math.max(0, (page?.agents.length ?? 0) - 1);
      patch({ selected: Math.min(last, Math.max(0, selected + delta)) });
    },

    // Spec 4.1 rule 3: a cursor belongs to one sort order, so a new sort starts from page one.
    async cycleSort() {
      const { query } = get().catalog;
      const sort = AGENT_SORTS[(AGENT_SORTS.indexOf(query.sort) + 1) % AGENT_SORTS.length];
      await firstPage({ ...query, sort });
    },

    async clearQuery() {
      await firstPage({ sort: get().catalog.query.sort, filters: {} });
    },

    startSearch() {
      patch({ searchDraft: get().catalog.query.q ?? '' });
    },
    typeSearch(text) {
      const draft = get().catalog.searchDraft;
      if (draft !== null) patch({ searchDraft: draft + text });
    },
    eraseSearch() {
      const draft = get().catalog.searchDraft;
      if (draft) patch({ searchDraft: draft.slice(0, -1) });
    },
    cancelSearch() {
      patch({ searchDraft: null });
    },
    // The length limit (100) is the service's to enforce: the console shows its refusal.
    async submitSearch() {
      const { searchDraft, query } = get().catalog;
      if (searchDraft === null) return;
      patch({ searchDraft: null });
      await firstPage({ ...query, q: searchDraft.trim() || undefined });
    },
  };
}
