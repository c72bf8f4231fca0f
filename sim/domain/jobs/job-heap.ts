/**
 * Due jobs ordered by (due time, sequence), as fake-timer libraries order timers.
 * The job records themselves live in the store (so they survive restarts); this
 * heap is an index over them, rebuilt at load and fed by every commit.
 */
export interface ScheduledJob {
  id: string;
  dueAtMs: number;
  seq: number;
  kind: string;
  ref: string;
}

interface HeapEntry {
  id: string;
  dueAtMs: number;
  seq: number;
}

/** Through a local: the destructuring swap allocated an array each time (87 MB of the 30-day fast-forward's allocations, pop alone). */
function swap(items: HeapEntry[], i: number, j: number): void {
  const held = items[i];
  items[i] = items[j];
  items[j] = held;
}

const before = (a: HeapEntry, b: HeapEntry) => a.dueAtMs < b.dueAtMs || (a.dueAtMs === b.dueAtMs && a.seq < b.seq);

export class JobHeap {
  private items: HeapEntry[] = [];

  get size(): number {
    return this.items.length;
  }

  push(entry: HeapEntry): void {
    const items = this.items;
    items.push(entry);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      swap(items, i, parent);
      i = parent;
    }
  }

  peek(): HeapEntry | undefined {
    return this.items[0];
  }

  pop(): HeapEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && before(items[l], items[m])) m = l;
        if (r < items.length && before(items[r], items[m])) m = r;
        if (m === i) break;
        swap(items, i, m);
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items = [];
  }
}

/**
 * Finds the earliest live job. Heap entries whose job was deleted or rescheduled
 * since they were pushed are dropped lazily here.
 */
export function earliestJob(heap: JobHeap, lookup: (id: string) => ScheduledJob | undefined): ScheduledJob | undefined {
  for (;;) {
    const top = heap.peek();
    if (!top) return undefined;
    const job = lookup(top.id);
    if (job && job.dueAtMs === top.dueAtMs && job.seq === top.seq) return job;
    heap.pop();
  }
}

/**
 * The live jobs at the front of the order that fall due at the earliest one's
 * instant and satisfy `take`, stopping at the first that does not (so running
 * them together cannot overtake a job ordered between them), at most `limit`.
 * The heap is left as it was: the jobs stay scheduled until they have run.
 */
export function leadingRun(heap: JobHeap, lookup: (id: string) => ScheduledJob | undefined, limit: number, take: (job: ScheduledJob) => boolean): ScheduledJob[] {
  const run: ScheduledJob[] = [];
  const lifted: HeapEntry[] = [];
  while (run.length < limit) {
    const job = earliestJob(heap, lookup);
    if (!job || (run.length > 0 && job.dueAtMs !== run[0].dueAtMs) || !take(job)) break;
    run.push(job);
    lifted.push(heap.pop()!);
  }
  for (const entry of lifted) heap.push(entry);
  return run;
}
