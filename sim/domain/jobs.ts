import { earliestJob, JobHeap } from '../runtime/scheduler.ts';
import { iso, transact, type Deps, type StoreTx } from './context.ts';
import type { Job } from './records.ts';

/**
 * Scheduled work on the virtual clock: run steps, quote and key expiries,
 * monitor ticks, webhook attempts. A job is a store record (durable); one job
 * per (kind, ref), so rescheduling replaces it.
 */
export type JobHandler = (job: Job) => void | Promise<void>;

/** What an advance did: the jobs it ran and the instant it reached. */
export interface Advanced {
  processed: ProcessedJob[];
  /** Reported as the clock's `now`: in realtime mode the wall clock moves on after this. */
  reachedMs: number;
}

export interface ProcessedJob {
  kind: string;
  ref: string;
  at: string;
}

export function schedule(tx: StoreTx, kind: string, ref: string, dueAtMs: number): void {
  const seq = (tx.getMeta<number>('jobSeq') ?? 0) + 1;
  tx.setMeta('jobSeq', seq);
  tx.put('jobs', { id: `${kind}:${ref}`, dueAtMs, seq, kind, ref });
}

export function unschedule(tx: StoreTx, kind: string, ref: string): void {
  if (tx.get('jobs', `${kind}:${ref}`)) tx.delete('jobs', `${kind}:${ref}`);
}

/** Advancing past this many jobs in one call is refused as a runaway. */
const MAX_JOBS_PER_ADVANCE = 2_000_000;

export class Scheduler {
  private heap = new JobHeap();
  private handlers = new Map<string, JobHandler>();
  private running: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Whether an advance is under way or waiting (a delivery job may be awaiting a receiver). */
  get isBusy(): boolean {
    return this.pending > 0;
  }

  constructor(private deps: Deps) {
    for (const job of deps.store.all('jobs')) this.heap.push(job);
  }

  /** Called for every committed write to the jobs collection. */
  observe(row: Job | null): void {
    if (row) this.heap.push(row);
  }

  rebuild(): void {
    this.heap.clear();
    for (const job of this.deps.store.all('jobs')) this.heap.push(job);
  }

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  next(): Job | undefined {
    return earliestJob(this.heap, (id) => this.deps.store.get('jobs', id));
  }

  /**
   * Runs every job due up to the target in (due time, sequence) order, then sets
   * the clock there. Serialized; the target is computed once this advance's turn
   * comes, so two concurrent 'advance 10 s' calls advance 20 s.
   */
  advanceTo(target: number | (() => number)): Promise<Advanced> {
    return this.serialize(() => this.drain(typeof target === 'function' ? target() : target));
  }

  /** Jumps to the next job's time and runs what is due then. */
  advanceToNext(): Promise<Advanced> {
    return this.serialize(() => {
      const job = this.next();
      return this.drain(job ? Math.max(job.dueAtMs, this.deps.clock.now()) : this.deps.clock.now());
    });
  }

  private serialize(work: () => Promise<Advanced>): Promise<Advanced> {
    this.pending += 1;
    const done = this.running.then(work).finally(() => {
      this.pending -= 1;
    });
    this.running = done.catch(() => undefined);
    return done;
  }

  private async drain(targetMs: number): Promise<Advanced> {
    const processed: ProcessedJob[] = [];
    for (let n = 0; n < MAX_JOBS_PER_ADVANCE; n += 1) {
      const job = this.next();
      if (!job || job.dueAtMs > targetMs) break;
      this.deps.clock.moveTo(job.dueAtMs);
      const handler = this.handlers.get(job.kind);
      if (handler) await this.deps.clock.pinAt(job.dueAtMs, () => handler(job));
      // A handler may have rescheduled its own job; only the instance that ran is removed.
      const current = this.deps.store.get('jobs', job.id);
      if (current && current.seq === job.seq) transact(this.deps, (tx) => tx.delete('jobs', job.id));
      processed.push({ kind: job.kind, ref: job.ref, at: iso(job.dueAtMs) });
    }
    const reachedMs = Math.max(targetMs, this.deps.clock.now());
    this.deps.clock.moveTo(reachedMs);
    return { processed, reachedMs };
  }
}
