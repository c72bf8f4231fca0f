import { createStore, type StoreApi } from 'zustand/vanilla';
import { agentActions } from './agent.ts';
import { guardedCall, type SliceContext } from './call.ts';
import { catalogActions } from './catalog.ts';
import { filterActions } from './filters.ts';
import { sessionActions } from './session.ts';
import type { ConsoleData, ConsoleState, ConsoleStoreOptions, Screen } from './types.ts';

export type ConsoleStore = StoreApi<ConsoleState>;

const DEFAULT_PAGE_SIZE = 10;

function initialData(options: ConsoleStoreOptions): ConsoleData {
  const pageSize = options.catalogPageSize ?? DEFAULT_PAGE_SIZE;
  return {
    controlAvailable: options.controlAvailable,
    accountId: options.accountId ?? null,
    screen: 'home',
    isHelpOpen: false,
    error: null,
    clock: null,
    key: null,
    account: null,
    catalog: { query: { sort: 'newest', filters: {} }, page: null, cursors: [undefined], pageIndex: 0, pageSize, selected: 0, isLoading: false, searchDraft: null },
    filters: { draft: {}, row: 0 },
    agent: { listingId: null, detail: null, isLoading: false, scroll: 0 },
  };
}

/**
 * The console's state and the actions that change it: a fresh store per
 * console (and per test), handed to components by context. The actions are
 * the only code that calls the client.
 */
export function createConsoleStore(options: ConsoleStoreOptions): ConsoleStore {
  return createStore<ConsoleState>()((set, get) => {
    const slice: SliceContext = { set, get, client: options.client, call: guardedCall(options.client, set) };
    const session = sessionActions(slice);
    const catalog = catalogActions(slice);
    const filters = filterActions(slice, (draft) => catalog.loadPage({ ...get().catalog.query, filters: draft }, 0, undefined));
    const agent = agentActions(slice);

    const loadHome = () => Promise.all([session.loadKey(), session.loadAccount()]).then(() => undefined);

    return {
      ...initialData(options),
      actions: {
        ...session,
        ...catalog,
        ...filters,
        ...agent,

        async start() {
          await Promise.all([loadHome(), session.refreshClock()]);
        },

        go(screen: Screen) {
          set({ screen, isHelpOpen: false });
          if (screen === 'home') void loadHome();
          const { page, isLoading } = get().catalog;
          if (screen === 'catalog' && !page && !isLoading) void catalog.loadCatalog();
        },

        toggleHelp() {
          set((s) => ({ isHelpOpen: !s.isHelpOpen }));
        },
        closeHelp() {
          set({ isHelpOpen: false });
        },

        async refresh() {
          const { screen, agent: current } = get();
          if (screen === 'home') await loadHome();
          if (screen === 'catalog') await catalog.loadCatalog();
          if (screen === 'agent' && current.listingId) await agent.loadAgent(current.listingId);
          await session.refreshClock();
        },
      },
    };
  });
}
