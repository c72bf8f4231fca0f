import type { Monitor, SimChainLog, MonitorDetail } from '../../client/index.ts';
import { demoMonitorBody, matchingLog, rulesOf } from '../demo-chain.ts';
import { clampScroll } from './scroll.ts';
import type { SliceContext } from './call.ts';

export interface MonitorsState {
  list: Monitor[] | null;
  selected: number;
  detail: MonitorDetail | null;
  isDetailOpen: boolean;
  scroll: number;
}

export interface MonitorActions {
  loadMonitors(): Promise<void>;
  moveMonitorSelection(delta: number): void;
  openSelectedMonitor(): Promise<void>;
  closeMonitor(): void;
  stopMonitor(): Promise<void>;
  createDemoMonitor(): Promise<void>;
  mineMatchingLog(): Promise<void>;
  scrollMonitor(delta: number, maxScroll: number): void;
}

declare module './console-state.ts' {
  interface ConsoleData {
    monitors: MonitorsState;
  }
  interface ConsoleActions {
    monitors: MonitorActions;
  }
}

export const emptyMonitors = (): MonitorsState => ({ list: null, selected: 0, detail: null, isDetailOpen: false, scroll: 0 });

/** Monitors (spec 2.13, 4.13): ETH keys only. */
export function monitorActions({ set, get, call }: SliceContext, newIdempotencyKey: () => string): MonitorActions {
  const patch = (partial: Partial<MonitorsState>) => set((s) => ({ monitors: { ...s.monitors, ...partial } }));

  /** The monitor an action is about: the open detail's, else the selected row's. */
  const current = (): Monitor | null => {
    const { detail, isDetailOpen, list, selected } = get().monitors;
    return (isDetailOpen ? detail?.monitor : undefined) ?? list?.[selected] ?? null;
  };

  async function loadDetail(monitorId: string) {
    const result = await call((c) => c.v1.getMonitor(monitorId));
    if (result.ok) patch({ detail: result.value });
  }

  async function loadMonitors() {
    const result = await call((c) => c.v1.listMonitors());
    if (!result.ok) return;
    const { selected } = get().monitors;
    patch({ list: result.value, selected: Math.min(selected, Math.max(0, result.value.length - 1)) });
    const { isDetailOpen, detail } = get().monitors;
    if (isDetailOpen && detail) await loadDetail(detail.monitor.id);
  }

  return {
    loadMonitors,

    moveMonitorSelection(delta) {
      const { list, selected } = get().monitors;
      const last = Math.max(0, (list?.length ?? 0) - 1);
      patch({ selected: Math.min(last, Math.max(0, selected + delta)) });
    },

    async openSelectedMonitor() {
      const monitor = get().monitors.list?.[get().monitors.selected];
      if (!monitor) return;
      patch({ isDetailOpen: true, detail: get().monitors.detail?.monitor.id === monitor.id ? get().monitors.detail : null, scroll: 0 });
      await loadDetail(monitor.id);
    },

    closeMonitor() {
      patch({ isDetailOpen: false, scroll: 0 });
    },

    // Spec 3.6: stopping is immediate, and repeating it returns the current state.
    async stopMonitor() {
      const monitor = current();
      if (!monitor) return;
      const result = await call((c) => c.v1.stopMonitor(monitor.id));
      if (!result.ok) return;
      set({ notice: `${result.value.name ?? 'monitor'}: ${result.value.status}${result.value.statusReason ? ` (${result.value.statusReason})` : ''}` });
      await loadMonitors();
    },

    // Spec 4.10: a key may create monitors in the test environment only; production refuses, and the refusal is shown.
    async createDemoMonitor() {
      const result = await call((c) => c.v1.createMonitor(demoMonitorBody(newIdempotencyKey())));
      if (!result.ok) return;
      set({ notice: `created ${result.value.monitor.name ?? 'monitor'} on ${result.value.monitor.chain ?? '?'} (${result.value.monitor.id.slice(0, 8)}…)` });
      patch({ selected: 0 });
      await loadMonitors();
    },

    // Control API: mines a block holding a log that the monitor's first readable rule matches.
    async mineMatchingLog() {
      if (!get().controlAvailable) return;
      const monitor = current();
      if (!monitor) {
        set({ error: { code: 'console_error', message: 'No monitor to mine a log for: create one first (n).', status: null } });
        return;
      }
      let log: SimChainLog | null = null;
      for (const rule of rulesOf(monitor)) {
        log = matchingLog(rule);
        if (log) break;
      }
      if (!log || !monitor.chain) {
        set({ error: { code: 'console_error', message: `The console cannot make a log for the rules of ${monitor.name ?? monitor.id}.`, status: null } });
        return;
      }
      const chain = monitor.chain;
      const result = await call((c) => c.sim.mineBlocks(chain, { logs: [log] }));
      if (!result.ok) return;
      set({ notice: `mined block ${String(result.value[0]?.number ?? '?')} on ${chain} with a ${log.event} log of ${log.address.slice(0, 10)}…` });
      await Promise.all([loadMonitors(), get().actions.notifications.loadNotifications()]);
    },

    scrollMonitor(delta, maxScroll) {
      set((s) => ({ monitors: { ...s.monitors, scroll: clampScroll(s.monitors.scroll + delta, maxScroll) } }));
    },

  };
}
