import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Client } from '../../client/index.ts';
import { agentActions } from './agent.ts';
import { guardedCall, loadingCounter, type SliceContext } from './call.ts';
import { catalogActions, emptyCatalog } from './catalog.ts';
import { confirmActions } from './confirm.ts';
import { driftActions, idleDrift } from './drift.ts';
import type { ConsoleData, ConsoleState } from './console-state.ts';
import { evidenceActions } from './evidence.ts';
import { emptyFaults, faultsActions } from './faults.ts';
import { filterActions } from './filters.ts';
import { emptyInbox, inboxActions } from './inbox.ts';
import { emptyLedger, ledgerActions } from './ledger.ts';
import { emptyMonitors, monitorActions } from './monitors.ts';
import { emptyNotifications, notificationActions } from './notifications.ts';
import type { ConsoleStoreOptions } from './options.ts';
import { promptActions } from './prompt.ts';
import { defaultIdempotencyKey, emptyQuote, quoteActions } from './quote.ts';
import { emptyRequests, requestsActions } from './requests.ts';
import { emptyReport, reportActions } from './report.ts';
import { emptyRun, runActions, type RunListItem } from './run.ts';
import { emptyScenario, scenarioActions } from './scenario.ts';
import { sessionActions } from './session.ts';
import { shellActions } from './shell.ts';
import type { Screen } from './types.ts';
import { waitingActions } from './waiting.ts';

export type ConsoleStore = StoreApi<ConsoleState>;

const DEFAULT_PAGE_SIZE = 10;
const REALTIME_REREAD_MS = 10_000;

/** What belongs to the key in use: switching keys starts these afresh. */
function keyData(pageSize: number): Pick<ConsoleData, 'key' | 'account' | 'catalog' | 'agent' | 'quote' | 'run' | 'ledger' | 'monitors' | 'notifications'> {
  return {
    key: null,
    account: null,
    catalog: emptyCatalog(pageSize),
    agent: { listingId: null, detail: null, isLoading: false, scroll: 0 },
    quote: emptyQuote(),
    run: emptyRun(),
    ledger: emptyLedger(),
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
    loading: 0,
    heldKeys: [],
    error: null,
    notice: null,
    clock: null,
    wallNow: new Date().toISOString(),
    prompt: null,
    confirm: null,
    waiting: null,
    filters: { draft: {}, row: 0 },
    inbox: emptyInbox(options.inbox),
    requests: emptyRequests(),
    report: emptyReport(),
    faults: emptyFaults(),
    scenario: emptyScenario(),
    drift: idleDrift(),
  };
}

/**
 * The console's state and the actions that change it: a fresh store per
 * console (and per test), handed to components by context. Each slice
 * (console-state.ts) brings its state and its actions, under its own name;
 * this function only wires them. The actions are the only code that calls
 * the client.
 */
export function createConsoleStore(options: ConsoleStoreOptions): ConsoleStore {
  const store = createStore<ConsoleState>()((set, get, api) => {
    let current = options.keys?.[0]?.client ?? options.client;
    const client = followingClient(() => current);
    const newIdempotencyKey = options.newIdempotencyKey ?? defaultIdempotencyKey;
    const slice: SliceContext = { set, get, subscribe: api.subscribe, client, call: guardedCall(client, set, options.environment ?? null), loading: loadingCounter(set) };
    const catalog = catalogActions(slice);
    const waiting = waitingActions(slice);
    const run = { ...runActions(slice, client), ...evidenceActions(slice, options.saveEvidence) };
    const monitors = monitorActions(slice, newIdempotencyKey);
    const notifications = notificationActions(slice);
    const inbox = inboxActions(slice, options.inbox, options.memory ?? null);
    const ledger = ledgerActions(slice);
    const requests = requestsActions(slice);
    const report = reportActions(slice);
    const faults = faultsActions(slice);
    const scenario = scenarioActions(slice, options);
    const agent = agentActions(slice);
    const session = sessionActions(slice, options.realtimeRereadMs ?? REALTIME_REREAD_MS);
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
      ledger: () => ledger.loadLedger(),
      monitors: () => monitors.loadMonitors(),
      notifications: () => notifications.loadNotifications(),
      inbox: async () => {
        inbox.refreshInbox();
        await inbox.loadDestination();
      },
      requests: () => requests.loadRequests(),
      report: () => report.loadReport(),
      faults: () => faults.loadFaults(),
    };

    const shell = shellActions(slice, {
      session,
      loaders,
      loadHome,
      keys: options.keys ?? [],
      useKey(index) {
        current = (options.keys ?? [])[index].client;
        return keyData(get().catalog.pageSize);
      },
      async onStart() {
        if (options.play) void scenario.playScenario(options.play.file, options.play.paceMs);
        await Promise.all([loadHome(), session.refreshClock()]);
        await inbox.repointInbox();
      },
    });

    return {
      ...initialData(options),
      actions: {
        shell,
        prompt: promptActions(slice),
        confirm: confirmActions(slice, { 'cancel-run': ({ runId }) => run.cancelRunNow(runId) }),
        waiting,
        catalog,
        filters: filterActions(slice, (draft) => catalog.loadPage({ ...get().catalog.query, filters: draft }, 0, undefined)),
        agent,
        quote: quoteActions(slice, client, newIdempotencyKey, waiting.showingWaits),
        run,
        ledger,
        monitors,
        notifications,
        inbox,
        requests,
        report,
        faults,
        scenario,
        drift: driftActions(slice, options.driftCheck),
      },
    };
  });

  // Deliveries arrive on the receiver's schedule, not the console's: each one updates the inbox.
  options.inbox?.subscribe(() => store.getState().actions.inbox.refreshInbox());
  // Every run accepted (and every status read since) is kept for the key, so a later session lists it too.
  const memory = options.memory;
  if (memory) {
    store.subscribe((state, previous) => {
      if (state.key && state.run.accepted !== previous.run.accepted) memory.setRuns(state.key.id, state.run.accepted);
    });
  }
  return store;
}
