import { emptyReport, reportActions } from './report.ts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Client } from '../../client/index.ts';
import { agentActions } from './agent.ts';
import { guardedCall, type SliceContext } from './call.ts';
import { catalogActions } from './catalog.ts';
import { controlActions } from './control.ts';
import { filterActions } from './filters.ts';
import { evidenceActions } from './evidence.ts';
import { emptyInbox, inboxActions } from './inbox.ts';
import { emptyMonitors, emptyNotifications, monitorActions } from './monitors.ts';
import { defaultIdempotencyKey, emptyQuote, quoteActions } from './quote.ts';
import { emptyRun, runActions } from './run.ts';
import { emptyScenario, scenarioActions } from './scenario.ts';
import { sessionActions } from './session.ts';
import { confirmActions } from './confirm.ts';
import { waitingActions } from './waiting.ts';
import type { ConsoleActions, ConsoleData, ConsoleState, ConsoleStoreOptions, RunListItem, Screen } from './types.ts';

export type ConsoleStore = StoreApi<ConsoleState>;

const DEFAULT_PAGE_SIZE = 10;
const REALTIME_REREAD_MS = 10_000;

/** What belongs to the key in use: switching keys starts these afresh. */
function keyData(pageSize: number): Pick<ConsoleData, 'key' | 'account' | 'catalog' | 'agent' | 'quote' | 'run' | 'ledger' | 'monitors' | 'notifications'> {
  return {
    key: null,
    account: null,
    catalog: { query: { sort: 'newest', filters: {} }, page: null, cursors: [undefined], pageIndex: 0, pageSize, selected: 0, isLoading: false, searchDraft: null },
    agent: { listingId: null, detail: null, isLoading: false, scroll: 0 },
    quote: emptyQuote(),
    run: emptyRun(),
    ledger: { entries: null, scroll: 0 },
    monitors: emptyMonitors(),
    notifications: emptyNotifications(),
  };
}

/**
 * A client that always sends the key in use: the slices keep the one they
 * were given, and switching keys changes what it delegates to.
 */
function followingClient(current: () => Client): Client {
  return {
    get v1() {
      return current().v1;
    },
    get sim() {
      return current().sim;
    },
    waitForRun: (runId, pollOptions) => current().waitForRun(runId, pollOptions),
  };
}

/** Runs remembered from earlier sessions first where the list has none of them, newest first as accepted. */
function withRemembered(accepted: RunListItem[], remembered: RunListItem[]): RunListItem[] {
  return [...accepted, ...remembered.filter((r) => !accepted.some((a) => a.id === r.id))];
}

function initialData(options: ConsoleStoreOptions): ConsoleData {
  const pageSize = options.catalogPageSize ?? DEFAULT_PAGE_SIZE;
  const first = options.keys?.[0];
  return {
    ...keyData(pageSize),
    controlAvailable: options.controlAvailable,
    accountId: first ? first.accountId : (options.accountId ?? null),
    environment: options.environment ?? null,
    service: options.service ?? null,
    keys: (options.keys ?? []).map(({ name, profile, secret }) => ({ name, profile, secret })),
    keyIndex: 0,
    memoryWhere: options.memory?.where ?? null,
    screen: 'home',
    isHelpOpen: false,
    error: null,
    notice: null,
    clock: null,
    wallNow: new Date().toISOString(),
    prompt: null,
    confirm: null,
    waiting: null,
    filters: { draft: {}, row: 0 },
    inbox: emptyInbox(options.inbox),
    requests: { entries: null, scroll: 0 },
    faults: { faults: null, row: 0 },
    scenario: emptyScenario(),
    report: emptyReport(),
  };
}

/**
 * The console's state and the actions that change it: a fresh store per
 * console (and per test), handed to components by context. The actions are
 * the only code that calls the client.
 */
export function createConsoleStore(options: ConsoleStoreOptions): ConsoleStore {
  const store = createStore<ConsoleState>()((set, get) => {
    let current = options.keys?.[0]?.client ?? options.client;
    const client = followingClient(() => current);
    const newIdempotencyKey = options.newIdempotencyKey ?? defaultIdempotencyKey;
    const slice: SliceContext = { set, get, client, call: guardedCall(client, set, options.environment ?? null) };
    const session = sessionActions(slice, options.realtimeRereadMs ?? REALTIME_REREAD_MS);
    const catalog = catalogActions(slice);
    const filters = filterActions(slice, (draft) => catalog.loadPage({ ...get().catalog.query, filters: draft }, 0, undefined));
    const agent = agentActions(slice);
    const waiting = waitingActions(slice);
    const quote = quoteActions(slice, client, newIdempotencyKey, waiting.showingWaits);
    const run = runActions(slice, client);
    const confirm = confirmActions(slice, { 'cancel-run': ({ runId }) => run.cancelRunNow(runId) });
    const monitors = monitorActions(slice, newIdempotencyKey);
    const inbox = inboxActions(slice, options.inbox, options.memory ?? null);
    const control = controlActions(slice);
    const report = reportActions(slice);
    const scenario = scenarioActions(slice, options);
    const evidence = evidenceActions(slice, options.saveEvidence);
    const memory = options.memory ?? null;

    /** The key, its balances, and the runs this console accepted through it in earlier sessions. */
    const loadHome = async () => {
      await Promise.all([session.loadKey(), session.loadAccount()]);
      const key = get().key;
      if (!memory || !key) return;
      const { accepted } = get().run;
      const merged = withRemembered(accepted, memory.runs(key.id));
      if (merged.length === accepted.length) return;
      set((s) => ({ run: { ...s.run, accepted: merged } }));
      // A runs list read before the key was known lacks them.
      if (get().run.list) await run.loadRuns();
    };

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
      report: () => report.loadReport(),
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
      ...report,
      ...scenario,
      ...evidence,
      ...waiting,
      ...confirm,

      async start() {
        if (options.play) void scenario.playScenario(options.play.file, options.play.paceMs);
        await Promise.all([loadHome(), session.refreshClock()]);
        await inbox.repointInbox();
      },

      async switchKey() {
        const keys = options.keys ?? [];
        if (keys.length < 2) {
          set({ notice: 'the console holds only this key' });
          return;
        }
        const keyIndex = (get().keyIndex + 1) % keys.length;
        current = keys[keyIndex].client;
        // The key goes with everything read through it, in the same update (the memory keeps runs per key).
        const { name, profile, accountId } = keys[keyIndex];
        set((s) => ({ ...keyData(s.catalog.pageSize), keyIndex, accountId, error: null, notice: `using ${name} (${profile})`, screen: 'home', isHelpOpen: false }));
        await loadHome();
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
  // Every run accepted (and every status read since) is kept for the key, so a later session lists it too.
  const memory = options.memory;
  if (memory) {
    store.subscribe((state, previous) => {
      if (state.key && state.run.accepted !== previous.run.accepted) memory.setRuns(state.key.id, state.run.accepted);
    });
  }
  return store;
}
