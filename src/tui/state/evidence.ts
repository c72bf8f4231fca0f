import { collectEvidence, type EvidenceSaver } from '../evidence.ts';
import type { SliceContext } from './call.ts';
import type { RunActions } from './run.ts';

/** `w` on a run (part of the run slice): its evidence saved to a folder for a support ticket (src/tui/evidence.ts). */
export function evidenceActions({ set, get, client }: SliceContext, save: EvidenceSaver | null | undefined): Pick<RunActions, 'saveEvidence'> {
  return {
    async saveEvidence() {
      const { run, key, keys, keyIndex, controlAvailable, accountId, service, environment, clock, wallNow } = get();
      if (!run.runId) return;
      if (!save) {
        set({ error: { code: 'console_error', message: 'This console was started without a place to save evidence.', status: null } });
        return;
      }
      if (!key) await get().actions.shell.loadKey();
      const profile = get().key?.profile;
      if (!profile) return;
      set({ error: null, notice: `saving the evidence of run ${run.runId.slice(0, 8)}…` });
      try {
        const files = await collectEvidence({
          client,
          runId: run.runId,
          profile,
          keyName: keys[keyIndex]?.name ?? get().key?.name ?? 'the key',
          ledgerAccountId: controlAvailable ? accountId : null,
          service,
          environment,
          nowIso: clock?.now ?? wallNow,
        });
        const folder = await save(`run-${run.runId}`, files);
        // The folder last: a long path is what the notice line may cut.
        set({ notice: `saved summary.md and ${Object.keys(files).length - 1} answers to ${folder}` });
      } catch (error) {
        set({ notice: null, error: { code: 'console_error', message: `The evidence was not saved: ${error instanceof Error ? error.message : String(error)}`, status: null } });
      }
    },
  };
}
