import type { SimConductReport } from '../../client/conduct-report.ts';
import { clampScroll } from './scroll.ts';
import type { SliceContext } from './call.ts';

/** The Report screen's slice: the graded conduct of the key in use (GET /sim/report, docs/drill.md). */
export interface ReportState {
  report: SimConductReport | null;
  scroll: number;
}

export interface ReportActions {
  loadReport(): Promise<void>;
  scrollReport(delta: number, maxScroll: number): void;
}

declare module './console-state.ts' {
  interface ConsoleData {
    report: ReportState;
  }
  interface ConsoleActions {
    report: ReportActions;
  }
}

export const emptyReport = (): ReportState => ({ report: null, scroll: 0 });

export function reportActions({ set, get, call }: SliceContext): ReportActions {
  return {
    async loadReport() {
      const { controlAvailable, key } = get();
      if (!controlAvailable) return;
      const result = await call((c) => c.sim.report(key?.id));
      if (result.ok) set((s) => ({ report: { ...s.report, report: result.value } }));
    },
    scrollReport(delta, maxScroll) {
      set((s) => ({ report: { ...s.report, scroll: clampScroll(s.report.scroll + delta, maxScroll) } }));
    },
  };
}
