import type { SliceContext } from './call.ts';

/** What the drift check (`understudy drift`, docs/drift.md) reported: its exit status, its closing lines and where the JSON is. */
export interface DriftOutcome {
  exitCode: number;
  summary: string[];
  reportFile: string;
}

/** Runs the drift check against the console's service with its key (wired by the CLI: the command in a child process). */
export type DriftCheck = () => Promise<DriftOutcome>;

/** The key screen's offer of the drift check in --url mode: asked once, then running, then its summary. */
export interface DriftState {
  phase: 'idle' | 'asked' | 'running' | 'done';
  lines: string[];
}

export interface DriftActions {
  /** First press: what it sends; second press: sends it. */
  offerDrift(): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    drift: DriftState;
  }
  interface ConsoleActions {
    drift: DriftActions;
  }
}

export const idleDrift = (): DriftState => ({ phase: 'idle', lines: [] });

const ASK = [
  'The drift check sends this service only free requests with this key: reads, at most 5 quotes (they reserve nothing),',
  'two acceptances with a wrong hash, refused before anything is reserved. Press D again to send them (docs/drift.md).',
];

export function driftActions({ set, get }: SliceContext, check: DriftCheck | null | undefined): DriftActions {
  return {
    async offerDrift() {
      const { service, drift } = get();
      if (!check || !service || service.isEmbedded || drift.phase === 'running') return;
      if (drift.phase !== 'asked') {
        set({ drift: { phase: 'asked', lines: ASK } });
        return;
      }
      set({ drift: { phase: 'running', lines: [`Comparing ${service.url} with the simulator…`] } });
      try {
        const outcome = await check();
        const verdict = outcome.exitCode === 0 ? 'Nothing the spec states differs.' : 'Something the spec states differs, or the check could not run.';
        set({ drift: { phase: 'done', lines: [...outcome.summary, `${verdict} Report: ${outcome.reportFile}`] } });
      } catch (error) {
        set({ drift: { phase: 'done', lines: [`The drift check could not run: ${(error as Error).message}`] } });
      }
    },
  };
}
