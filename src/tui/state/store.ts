import { createStore, type StoreApi } from 'zustand/vanilla';
import { agentActions } from './agent.ts';
import { guardedCall, type SliceContext } from './call.ts';
import { catalogActions } from './catalog.ts';
import { controlActions } from './control.ts';
import { filterActions } from './filters.ts';
import { emptyInbox, inboxActions } from './inbox.ts';
import { emptyMonitors, emptyNotifications, monitorActions } from './monitors.ts';
import { defaultIdempotencyKey, emptyQuote, quoteActions } from './quote.ts';
import { emptyRun, runActions } from './run.ts';
import { emptyScenario, scenarioActions } from './scenario.ts';
import { sessionActions } from './session.ts';
import { confirmActions } from './confirm.ts';
import { waitingActions } from './waiting.ts';
import type { ConsoleActions, ConsoleData, ConsoleState, ConsoleStoreOptions, Screen } from './types.ts';

export type ConsoleStore = StoreApi<ConsoleState>;

const DEFAULT_PAGE_SIZE = 10;
const REALTIME_REREAD_MS = 10_000;

function initialData(options: ConsoleStoreOptions): ConsoleData {
  const pageSize = options.catalogPageSize ?? DEFAULT_PAGE_SIZE;
  return {
    controlAvailable: options.controlAvailable,
    accountId: options.accountId ?? null,
    screen: 'home',
    isHelpOpen: false,
    error: null,
    notice: null,
    clock: null,
    wallNow: new Date().toISOString(),
    key: null,
    account: null,
    prompt: null,
    confirm: null,
    waiting: null,
    catalog: { query: { sort: 'newest', filters: {} }, page: null, cursors: [undefined], pageIndex: 0, pageSize, selected: 0, isLoading: false, searchDraft: null },
    filters: { draft: {}, row: 0 },
    agent: { listingId: null, detail: null, isLoading: false, scroll: 0 },
    quote: emptyQuote(),
    run: emptyRun(),
    ledger: { entries: null, scroll: 0 },
    monitors: emptyMonitors(),
    notifications: emptyNotifications(),
    inbox: emptyInbox(options.inbox),
    requests: { entries: null, scroll: 0 },
    faults: { faults: null, row: 0 },
    scenario: emptyScenario(),
  };
}

/**
 * The console's state and the actions that change it: a fresh store per
 * console (and per test), handed to components by context. The actions are
 * the only code that calls the client.
 */
export function createConsoleStore(options: ConsoleStoreOptions): ConsoleStore {
  const store = createStore<ConsoleState>()((set, get) => {
    const client = options.client;
    const newIdempotencyKey = options.newIdempotencyKey ?? defaultIdempotencyKey;
    const slice: SliceContext = { set, get, client, call: guardedCall(client, set) };
    const session = sessionActions(slice, options.realtimeRereadMs ?? REALTIME_REREAD_MS);
    const catalog = catalogActions(slice);
    const filters = filterActions(slice, (draft) => catalog.loadPage({ ...get().catalog.query, filters: draft }, 0, undefined));
    const agent = agentActions(slice);
    const waiting = waitingActions(slice);
    const quote = quoteActions(slice, client, newIdempotencyKey, waiting.showingWaits);
    const run = runActions(slice, client);
    const confirm = confirmActions(slice, { 'cancel-run': ({ runId }) => run.cancelRunNow(runId) });
    const monitors = monitorActions(slice, newIdempotencyKey);
    const inbox = inboxActions(slice, options.inbox);
    const control = controlActions(slice);
    const scenario = scenarioActions(slice, options);

    const loadHome = () => Promise.all([session.loadKey(), session.loadAccount()]).then(() => undefined);

    /** What each screen reads when it opens, on refresh (r) and after the clock moves. */
    const loaders: Partial<Record<Screen, () => Promise<unknown>>> = {
      home: loadHome,
      catalog: () => catalog.loadCatalog(),
      agent: async () => {
        const { listingId } = get().agent;
        if (listingId) await agent.loadAgent(listingId);
      },
      run: () => (get().run.runId ? run.loadRun() : run.loadRuns()),
      ledger: () => control.loadLedger(),
      monitors: () => monitors.loadMonitors(),
      notifications: () => monitors.loadNotifications(),
      inbox: async () => {
        inbox.refreshInbox();
        await inbox.loadDestination();
      },
      requests: () => control.loadRequests(),
      faults: () => control.loadFaults(),
    };

    const actions: ConsoleActions = {
      ...session,
      ...catalog,
      ...filters,
      ...agent,
      ...quote,
      ...run,
      ...monitors,
      ...inbox,
      ...control,
      ...scenario,
      ...waiting,
      ...confirm,

      async start() {
        if (options.play) void scenario.playScenario(options.play.file, options.play.paceMs);
        await Promise.all([loadHome(), session.refreshClock()]);
      },

      go(screen: Screen) {
        set({ screen, isHelpOpen: false });
        if (screen === 'catalog') {
          const { page, isLoading } = get().catalog;
          if (!page && !isLoading) void catalog.loadCatalog();
          return;
        }
        void loaders[screen]?.();
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

      typePrompt(text) {
        const prompt = get().prompt;
        if (prompt) set({ prompt: { ...prompt, value: prompt.value + text } });
      },
      erasePrompt() {
        const prompt = get().prompt;
        if (prompt && prompt.value) set({ prompt: { ...prompt, value: prompt.value.slice(0, -1) } });
      },
      cancelPrompt() {
        set({ prompt: null });
      },
      async submitPrompt() {
        const prompt = get().prompt;
        if (!prompt) return;
        set({ prompt: null });
        if (prompt.target.kind === 'quote-field') quote.setQuoteRowValue(prompt.target.row, prompt.value.trim());
        else await scenario.openScenario(prompt.value.trim());
      },
    };

    return { ...initialData(options), actions };
  });

  // Deliveries arrive on the receiver's schedule, not the console's: each one updates the inbox.
  options.inbox?.subscribe(() => store.getState().actions.refreshInbox());
  return store;
}
