import { isTerminal, railOf, type Client, type RunRead, type Billing, type Receipt, type ExportResult } from '../../client/index.ts';
import { clampScroll } from './scroll.ts';
import type { SliceContext } from './call.ts';
import { runPoller } from './run-poll.ts';

export type RunView = 'status' | 'billing' | 'receipt' | 'export' | 'money';

export interface RunListItem {
  id: string;
  status: string;
  createdAt?: string;
  listingId?: string;
  agentName?: string;
  /** The agent's limit, when the console knows it (it quoted the agent). */
  maximumRpcCalls?: number;
}

export interface RunState {
  /** Runs to pick from: the account's (control API) and those accepted in this console. */
  list: RunListItem[] | null;
  selected: number;
  /** Runs accepted in this console, newest first (all there is to list against a remote service). */
  accepted: RunListItem[];
  runId: string | null;
  read: RunRead | null;
  view: RunView;
  billing: Billing | null;
  receipt: Receipt | null;
  exported: (ExportResult & { bytes: number }) | null;
  /** The agent's execution limits (spec 2.5), for the reads bar. */
  agentName: string | null;
  maximumRpcCalls: number | null;
  /** Reads so far without a terminal status: drives the poll backoff (spec 4.6). */
  pollIndex: number;
  isLoading: boolean;
  /** The billing, receipt or export is being read. */
  isViewLoading: boolean;
  /** Lines scrolled; on the timeline, lines up from its newest event (it follows new events). */
  scroll: number;
}

export interface RunActions {
  loadRuns(): Promise<void>;
  moveRunSelection(delta: number): void;
  openSelectedRun(): Promise<void>;
  openRun(runId: string): Promise<void>;
  loadRun(): Promise<void>;
  pollRun(): Promise<void>;
  showRunView(view: RunView): Promise<void>;
  /** Asks first (y/n): a cancel cannot be undone. */
  cancelRun(): void;
  /** Resolves a pending billing's held reads (control API): confirmed, they are charged; not, they return. */
  reconcileRun(confirmed: boolean): Promise<void>;
  closeRun(): void;
  /** Saves the open run's receipt, export, billing, events and ledger lines to a folder (src/tui/evidence.ts). */
  saveEvidence(): Promise<void>;
  scrollRun(delta: number, maxScroll: number): void;
  /** Cancels without asking: the confirm slice's yes. */
  cancelRunNow(runId: string): Promise<void>;
  /** Polls the run in view until terminal (spec 4.6); started and stopped with the console (shell.start/stop). */
  startPolling(): void;
  stopPolling(): void;
}

declare module './console-state.ts' {
  interface ConsoleData {
    run: RunState;
  }
  interface ConsoleActions {
    run: RunActions;
  }
}

export const emptyRun = (): RunState => ({
  list: null,
  selected: 0,
  accepted: [],
  runId: null,
  read: null,
  view: 'status',
  billing: null,
  receipt: null,
  exported: null,
  agentName: null,
  maximumRpcCalls: null,
  pollIndex: 0,
  isLoading: false,
  isViewLoading: false,
  scroll: 0,
});

/**
 * One run (spec 4.6–4.9): its status and events, polled until terminal, and
 * its billing, settlement receipt and export; plus the runs to choose from.
 */
export function runActions({ set, get, call, subscribe, loading }: SliceContext, client: Client): Omit<RunActions, 'saveEvidence'> {
  const patch = (partial: Partial<RunState> | ((run: RunState) => Partial<RunState>)) =>
    set((s) => ({ run: { ...s.run, ...(typeof partial === 'function' ? partial(s.run) : partial) } }));

  async function profile(): Promise<string | null> {
    if (!get().key) await get().actions.shell.loadKey();
    return get().key?.profile ?? null;
  }

  async function loadView(view: RunView) {
    const { runId } = get().run;
    if (!runId) return;
    patch({ isViewLoading: true });
    try {
      await readView(runId, view);
    } finally {
      patch({ isViewLoading: false });
    }
  }

  async function readView(runId: string, view: RunView): Promise<void> {
    // The money view (`understudy explain`) reads what it is computed from.
    if (view === 'money') {
      // Only what exists is asked for, so no expected 404 (pending: no receipt) or 409 (no report: no export) shows as an error.
      await readView(runId, 'billing');
      if (get().run.billing?.status === 'settled') await readView(runId, 'receipt');
      const status = get().run.read?.run.status;
      if (status === 'succeeded' || status === 'partial') await readView(runId, 'export');
    } else if (view === 'billing') {
      const rail = await profile();
      if (!rail) return;
      const result = await call((c) => c.v1.billing(railOf(rail), runId));
      if (get().run.runId === runId) patch({ billing: result.ok ? result.value : null });
    } else if (view === 'receipt') {
      const result = await call((c) => c.v1.receipt(runId));
      if (get().run.runId === runId) patch({ receipt: result.ok ? result.value : null });
    } else if (view === 'export') {
      const result = await call((c) => c.v1.exportRun(runId));
      // Canonical JSON has no whitespace, so its size is the compact serialisation's.
      if (get().run.runId === runId) patch({ exported: result.ok ? { ...result.value, bytes: new TextEncoder().encode(JSON.stringify(result.value.export)).length } : null });
    }
  }

  /**
   * Reads of runs that had ended: spec 4.6 polls "until the status is terminal", and a
   * terminal run never changes again, so the console shows what it read then instead of
   * asking again (its own conduct report holds it to that).
   */
  const ended = new Map<string, RunRead>();
  /** The read of a run under way: quick clock keys share it rather than send reads side by side. */
  const reading = new Map<string, ReturnType<typeof readRun>>();
  const readRun = (runId: string) => call((c) => c.v1.getRun(runId));
  function readOnce(runId: string): ReturnType<typeof readRun> {
    let read = reading.get(runId);
    if (read === undefined) {
      read = readRun(runId).finally(() => reading.delete(runId));
      reading.set(runId, read);
    }
    return read;
  }

  async function loadRun() {
    const { runId, view, maximumRpcCalls } = get().run;
    if (!runId) return;
    patch({ isLoading: true });
    const known = ended.get(runId);
    const result = known ? ({ ok: true, value: known } as const) : await readOnce(runId);
    if (get().run.runId !== runId) return;
    if (result.ok && isTerminal(result.value.run.status)) ended.set(runId, result.value);
    patch({ isLoading: false, ...(result.ok ? { read: result.value } : {}) });
    if (!result.ok) return;
    patch((r) => ({ accepted: r.accepted.map((a) => (a.id === runId ? { ...a, status: result.value.run.status } : a)) }));
    // The reads bar needs the agent's maximumRpcCalls (spec 2.5 limits): read once per run.
    const listingId = typeof result.value.run.listingId === 'string' ? result.value.run.listingId : null;
    if (maximumRpcCalls === null && listingId) {
      try {
        const agent = await client.v1.getAgent(listingId);
        if (get().run.runId === runId) patch({ agentName: agent.name, maximumRpcCalls: agent.limits.maximumRpcCalls });
      } catch {
        // The bar then shows the reads without a maximum.
      }
    }
    if (view !== 'status') await loadView(view);
  }

  const poller = runPoller(get, subscribe, () => get().actions.run.pollRun());

  return {
    startPolling: () => poller.start(),
    stopPolling: () => poller.stop(),
    async loadRuns() {
      const { controlAvailable, accountId } = get();
      let listed: RunListItem[] = [];
      if (controlAvailable && accountId) {
        const result = await call((c) => c.sim.runs(accountId));
        const own = await profile();
        // Spec 5: a key sees only the runs paid in its own asset.
        if (result.ok) listed = result.value.filter((r) => !own || !r.profile || r.profile === own).map((r) => ({ id: r.id, status: r.status, createdAt: r.createdAt, listingId: typeof r.listingId === 'string' ? r.listingId : undefined }));
      }
      const { accepted } = get().run;
      const names = new Map(accepted.map((a) => [a.id, a.agentName]));
      const merged = [...accepted.filter((a) => !listed.some((l) => l.id === a.id)), ...listed].map((r) => ({ ...r, agentName: r.agentName ?? names.get(r.id) }));
      patch((r) => ({ list: merged, selected: Math.min(r.selected, Math.max(0, merged.length - 1)) }));
    },

    moveRunSelection(delta) {
      const { list, selected } = get().run;
      const last = Math.max(0, (list?.length ?? 0) - 1);
      patch({ selected: Math.min(last, Math.max(0, selected + delta)) });
    },

    async openSelectedRun() {
      const { list, selected } = get().run;
      const item = list?.[selected];
      if (item) await get().actions.run.openRun(item.id);
    },

    async openRun(runId) {
      const known = get().run.accepted.find((a) => a.id === runId);
      const same = get().run.runId === runId;
      set((s) => ({
        screen: 'run',
        isHelpOpen: false,
        run: {
          ...s.run,
          runId,
          view: 'status',
          scroll: 0,
          pollIndex: 0,
          ...(same ? {} : { read: null, billing: null, receipt: null, exported: null, agentName: known?.agentName ?? null, maximumRpcCalls: known?.maximumRpcCalls ?? null }),
        },
      }));
      await loading(loadRun);
    },

    loadRun,

    // Spec 4.6: poll from about one second, backing off to about ten; the screen schedules, this reads.
    async pollRun() {
      patch((r) => ({ pollIndex: r.pollIndex + 1 }));
      await loadRun();
    },

    async showRunView(view) {
      if (!get().run.runId) return;
      patch({ view, scroll: 0 });
      if (view === 'status') await loadRun();
      else await loadView(view);
    },

    cancelRun() {
      const { runId, read } = get().run;
      if (!runId) return;
      // Spec 3.2: cancelling settles what was used so far; there is no undo, so it is asked like accept is.
      const status = read ? ` (${read.run.status})` : '';
      set({ confirm: { kind: 'cancel-run', runId, question: `Cancel run ${runId.slice(0, 8)}…${status}? What it used so far is settled; this cannot be undone.` } });
    },

    async cancelRunNow(runId) {
      const result = await call((c) => c.v1.cancelRun(runId));
      if (!result.ok) return;
      const { read } = get().run;
      const wasTerminal = read && read.run.id === runId ? isTerminal(read.run.status) : false;
      set({ notice: wasTerminal ? `the run had already ended (${result.value.status}); cancel changed nothing` : `cancelled: the run is ${result.value.status}` });
      if (get().run.runId !== runId) return;
      patch({ pollIndex: 0 });
      await loadRun();
    },

    async reconcileRun(confirmed) {
      const { runId } = get().run;
      if (!runId) return;
      const result = await call((c) => c.sim.reconcileRun(runId, { confirmed }));
      if (!result.ok) return;
      set({ notice: confirmed ? 'reconciled: the held reads were confirmed and charged' : 'reconciled: the held reads were not confirmed; their amount returned to available' });
      patch({ view: 'billing', billing: result.value, scroll: 0 });
      await loadRun();
    },

    closeRun() {
      patch({ runId: null, read: null, view: 'status', scroll: 0 });
      void loading(() => get().actions.run.loadRuns());
    },

    // The timeline follows its newest event: there `scroll` counts lines up from the end.
    scrollRun(delta, maxScroll) {
      patch((r) => ({ scroll: clampScroll(r.view === 'status' ? r.scroll - delta : r.scroll + delta, maxScroll) }));
    },
  };
}
