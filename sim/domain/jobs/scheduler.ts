import { earliestJob, JobHeap, leadingRun } from './job-heap.ts';
import { iso, transact, type Deps, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import type { Job } from './records.ts';

/**
 * Scheduled work on the virtual clock: run steps, quote and key expiries,
 * monitor ticks, webhook attempts. A job is a store record (durable); one job
 * per (kind, ref), so rescheduling replaces it. A handler works inside the
 * job's one transaction, which also removes the job: what a job did and its
 * leaving the schedule commit together, or neither does.
 */
export type JobHandler = (tx: StoreTx, job: Job) => void;

/**
 * A job that waits on the network, split so that several due at the same
 * instant can wait together while the store still changes in job order:
 * `prepare` and `record` are synchronous and run in (due time, sequence)
 * order; only `send` overlaps. Ids drawn, sequence numbers and notifications
 * therefore come out the same whichever receiver answers first.
 */
export interface PhasedJobHandler<P, R> {
  /** What to send, or null when there is nothing to do any more. */
  prepare(job: Job): P | null;
  send(prepared: P): Promise<R>;
  /** Inside the job's one transaction, as a JobHandler. */
  record(tx: StoreTx, job: Job, prepared: P, result: R): void;
}

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
  scheduleAs(tx, kind, ref, dueAtMs, reserveJobSeqs(tx, 1));
}

/**
 * Draws `count` sequence numbers for jobs scheduled later (scheduleAs), and
 * gives the first: jobs due at one instant run in the order their numbers
 * were drawn, whenever each is put in the schedule.
 */
export function reserveJobSeqs(tx: StoreTx, count: number): number {
  const first = (tx.getMeta<number>('jobSeq') ?? 0) + 1;
  tx.setMeta('jobSeq', first + count - 1);
  return first;
}

/** Schedules a job under a sequence number drawn before (reserveJobSeqs). */
export function scheduleAs(tx: StoreTx, kind: string, ref: string, dueAtMs: number, seq: number): void {
  tx.put('jobs', { id: `${kind}:${ref}`, dueAtMs, seq, kind, ref });
}

export function unschedule(tx: StoreTx, kind: string, ref: string): void {
  if (tx.get('jobs', `${kind}:${ref}`)) tx.delete('jobs', `${kind}:${ref}`);
}

export interface SchedulerOptions {
  /** Jobs one advance may run before it is refused as a runaway (tests lower it). */
  maxJobsPerAdvance?: number;
}

/** The runaway bound of one advance; see drain(). */
const MAX_JOBS_PER_ADVANCE = 2_000_000;

/** Network waits of one instant under way at once (one slow receiver no longer holds up the others; eight bound the sockets). */
export const SEND_CONCURRENCY = 8;

export class Scheduler {
  private heap = new JobHeap();
  private handlers = new Map<string, JobHandler>();
  private phased = new Map<string, PhasedJobHandler<unknown, unknown>>();
  private running: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private readonly maxJobs: number;

  /** Whether an advance is under way or waiting (a delivery job may be awaiting a receiver). */
  get isBusy(): boolean {
    return this.pending > 0;
  }

  constructor(
    private deps: Deps,
    options: SchedulerOptions = {},
  ) {
    this.maxJobs = options.maxJobsPerAdvance ?? MAX_JOBS_PER_ADVANCE;
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

  onPhased<P, R>(kind: string, handler: PhasedJobHandler<P, R>): void {
    this.phased.set(kind, handler as PhasedJobHandler<unknown, unknown>);
  }

  /** The kinds of job something here performs: an imported job of another kind could never run. */
  kinds(): ReadonlySet<string> {
    return new Set([...this.handlers.keys(), ...this.phased.keys()]);
  }

  next(): Job | undefined {
    return earliestJob(this.heap, this.lookup);
  }

  private lookup = (id: string) => this.deps.store.get('jobs', id);

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

  /**
   * The runaway bound never lets the clock pass a job that has not run. An
   * advance that reaches it with jobs still due is refused, the clock left at
   * the last instant reached (what ran there stays done: each job commits on
   * its own). A catch-up, which does not move the clock, just stops; the next
   * one goes on from there.
   */
  private async drain(targetMs: number): Promise<Advanced> {
    const processed: ProcessedJob[] = [];
    for (;;) {
      const job = this.next();
      if (!job || job.dueAtMs > targetMs) break;
      if (processed.length >= this.maxJobs) {
        if (targetMs <= this.deps.clock.now()) return { processed, reachedMs: this.deps.clock.now() };
        throw this.runaway(targetMs);
      }
      this.deps.clock.moveTo(job.dueAtMs);
      const phased = this.phased.get(job.kind);
      if (phased) {
        const together = leadingRun(this.heap, this.lookup, this.maxJobs - processed.length, (j) => j.kind === job.kind) as Job[];
        await this.runTogether(together, phased, processed);
      } else {
        const handler = this.handlers.get(job.kind);
        this.deps.clock.pinAt(job.dueAtMs, () => this.perform(job, handler ? (tx) => handler(tx, job) : null, processed));
      }
    }
    const reachedMs = Math.max(targetMs, this.deps.clock.now());
    this.deps.clock.moveTo(reachedMs);
    return { processed, reachedMs };
  }

  /** Jobs of one kind due at one instant: prepared in order, sent together (bounded), recorded in order. */
  private async runTogether(jobs: Job[], handler: PhasedJobHandler<unknown, unknown>, processed: ProcessedJob[]): Promise<void> {
    const at = jobs[0].dueAtMs;
    const prepared = jobs.map((job) => this.deps.clock.pinAt(at, () => handler.prepare(job)));
    const outcomes = await settleBounded(prepared, SEND_CONCURRENCY, (p) => (p === null ? Promise.resolve(null) : handler.send(p)));
    jobs.forEach((job, i) => {
      const outcome = outcomes[i];
      // As when jobs ran one by one: a failure stops the advance there; the jobs after it stay scheduled.
      if (outcome.status === 'rejected') throw outcome.reason;
      const p = prepared[i];
      this.deps.clock.pinAt(at, () => this.perform(job, p === null ? null : (tx) => handler.record(tx, job, p, outcome.value), processed));
    });
  }

  /** One job, one transaction: its work (if any) and its removal from the schedule. */
  private perform(job: Job, work: ((tx: StoreTx) => void) | null, processed: ProcessedJob[]): void {
    transact(this.deps, (tx) => {
      work?.(tx);
      // A handler may have rescheduled its own job; only the instance that ran is removed.
      const current = tx.get('jobs', job.id);
      if (current && current.seq === job.seq) tx.delete('jobs', job.id);
    });
    processed.push({ kind: job.kind, ref: job.ref, at: iso(job.dueAtMs) });
  }

  private runaway(targetMs: number) {
    const now = iso(this.deps.clock.now());
    return errors.conflict(
      `The advance was refused after running ${this.maxJobs} jobs (the per-advance bound) with jobs still due before ${iso(targetMs)}. ` +
        `The clock stays at ${now}, the last instant every due job has run by; advance again to continue from there.`,
    );
  }
}

/** `work` over every item with at most `limit` under way at once; the outcomes in the items' order. */
async function settleBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const outcomes: PromiseSettledResult<R>[] = new Array(items.length);
  let taken = 0;
  const worker = async () => {
    while (taken < items.length) {
      const i = taken++;
      try {
        outcomes[i] = { status: 'fulfilled', value: await work(items[i]) };
      } catch (reason) {
        outcomes[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcomes;
}
