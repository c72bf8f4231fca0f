import type { DetailLine } from './agent-lines.ts';
import type { DisplayError } from '../state/types.ts';

/**
 * What the export pane says when it has no export: why, from the run's status
 * and the refusal the read got (the error line), rather than one sentence that
 * fits none of the cases well.
 */
export function noExportLines(runStatus: string | undefined, refusal: DisplayError | null): DetailLine[] {
  const line = (text: string): DetailLine[] => [{ text, tone: 'muted' }];
  if (refusal?.status === 503) return line('No export read: the export storage is unavailable (503, spec 7); nothing is lost, try again later.');
  if (refusal?.status === 410) return line('No export read: this export has expired (410); read it again to have it rebuilt.');
  if (runStatus === 'cancelled') return line('No export: this run was cancelled, so it has no report, and an export exists only for a run with a report (spec 4.8).');
  if (runStatus === 'failed') return line('No export: this run failed, so it has no report, and an export exists only for a run with a report (spec 4.8).');
  if (runStatus === 'queued' || runStatus === 'running') return line(`No export yet: the run is ${runStatus}; its export exists once it ends with a report (spec 4.8).`);
  return line('No export: there is one only for a run with a report (spec 4.8).');
}
