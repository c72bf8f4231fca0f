import { iso, type Deps, type StoreTx } from '../context.ts';
import type { RunRecord } from './records.ts';

/**
 * Run event steps (spec 6.1; the set is not shown, so these are the
 * simulator's, docs/runs.md): queued, started, chain-reads, analysis, report,
 * succeeded, partial, failed, deadline-exceeded, cancel-requested, cancelled,
 * settled, billing-pending, reconciled, scripted.
 */
export function addEvent(deps: Deps, tx: StoreTx, run: RunRecord, step: string, message: string): RunRecord {
  const seq = run.eventCount + 1;
  // Stored under a sortable key; the event's public id is a uuid.
  tx.put('runEvents', { id: eventId(run.id, seq), eventId: deps.random.uuid(), runId: run.id, seq, step, message, createdAt: iso(deps.clock.now()) });
  return { ...run, eventCount: seq };
}

export function eventId(runId: string, seq: number): string {
  return `${runId}:${String(seq).padStart(6, '0')}`;
}
