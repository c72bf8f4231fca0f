import type { Store, StoreTx } from './context.ts';
import type { ChainLog, MonitorEventRecord } from './records.ts';

/**
 * In-memory indexes for the monitor engine, derived from the store (never
 * stored themselves):
 * - per chain, the sorted block numbers that hold chain logs (removed ones
 *   included: a reorg marks logs removed, it never deletes them), from the
 *   `chainLogs` collection, so the engine finds the next block with logs and
 *   the logs of a window by binary search;
 * - per (monitor, log, rule), the match events reported for it (any status;
 *   the caller checks the status through its transaction).
 *
 * The Simulator builds it from the store (`attach`), feeds it every committed
 * write through the store's afterCommit hook (`observe`) and rebuilds it when
 * the store is replaced (reset, snapshot import). Writes of the transaction in
 * progress are not in it yet: lookups add the transaction's own chain logs
 * (`tx.written('chainLogs')`) and the match events the engine noted in it
 * (`noteReported`), and check every candidate event through `tx.get`.
 */
export class MonitorIndex {
  /** chain → ascending block numbers holding at least one log. */
  private blocks = new Map<string, bigint[]>();
  /** `${chain}:${blockNumber}` → number of logs in that block. */
  private perBlock = new Map<string, number>();
  /** log id → its `${chain}:${blockNumber}` key. */
  private logs = new Map<string, string>();
  /** `${monitorId}|${logId}|${ruleId}` → ids of match events reported for it. */
  private reported = new Map<string, Set<string>>();
  /** match event id → its reported key. */
  private eventKeys = new Map<string, string>();

  private constructor(private store: Store) {
    this.rebuild();
  }

  /** Builds the index of `store` and registers it for the domain functions. */
  static attach(store: Store): MonitorIndex {
    const index = new MonitorIndex(store);
    registry.set(store, index);
    return index;
  }

  /** The index registered for `store`; a store without one (none is built outside the Simulator) gets a one-off build. */
  static of(store: Store): MonitorIndex {
    return registry.get(store) ?? new MonitorIndex(store);
  }

  rebuild(): void {
    this.blocks.clear();
    this.perBlock.clear();
    this.logs.clear();
    this.reported.clear();
    this.eventKeys.clear();
    for (const log of this.store.all('chainLogs')) this.addLog(log);
    for (const event of this.store.all('monitorEvents')) this.addEvent(event);
  }

  /** Called for every committed write (the store's afterCommit hook). */
  observe(collection: string, id: string, row: unknown): void {
    if (collection === 'chainLogs') {
      if (row) this.addLog(row as ChainLog);
      else this.removeLog(id);
    } else if (collection === 'monitorEvents') {
      this.removeEvent(id);
      if (row) this.addEvent(row as MonitorEventRecord);
    }
  }

  /** The first block ≥ from holding a log on `chain` (this transaction's included), or null. */
  nextLogBlock(tx: Pick<StoreTx, 'written'>, chain: string, from: bigint): bigint | null {
    const list = this.blocks.get(chain);
    let best: bigint | null = null;
    if (list) {
      const i = lowerBound(list, from);
      if (i < list.length) best = list[i];
    }
    for (const n of pendingBlocks(tx, chain)) if (n >= from && (best === null || n < best)) best = n;
    return best;
  }

  /** Ascending block numbers in [from, to] holding a log on `chain` (this transaction's included). */
  blocksBetween(tx: Pick<StoreTx, 'written'>, chain: string, from: bigint, to: bigint): bigint[] {
    const out: bigint[] = [];
    const list = this.blocks.get(chain);
    if (list) {
      for (let i = lowerBound(list, from); i < list.length && list[i] <= to; i += 1) out.push(list[i]);
    }
    const pending = pendingBlocks(tx, chain).filter((n) => n >= from && n <= to);
    if (pending.length === 0) return out;
    return [...new Set([...out, ...pending])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Whether `monitorId` has an active match event for (logId, ruleId), as `tx` sees it. */
  isReported(tx: Pick<StoreTx, 'get'>, monitorId: string, logId: string, ruleId: string): boolean {
    const key = reportedKey(monitorId, logId, ruleId);
    const active = (id: string) => {
      const e = tx.get('monitorEvents', id);
      return e !== undefined && e.monitorId === monitorId && e.kind === 'match' && e.status === 'active' && e.logId === logId && e.ruleId === ruleId;
    };
    for (const id of this.reported.get(key) ?? []) if (active(id)) return true;
    for (const id of pendingReports.get(tx)?.get(key) ?? []) if (active(id)) return true;
    return false;
  }

  private addLog(log: ChainLog): void {
    if (this.logs.has(log.id)) return;
    const key = `${log.chain}:${log.blockNumber}`;
    this.logs.set(log.id, key);
    const count = this.perBlock.get(key) ?? 0;
    this.perBlock.set(key, count + 1);
    if (count > 0) return;
    const n = BigInt(log.blockNumber);
    let list = this.blocks.get(log.chain);
    if (!list) this.blocks.set(log.chain, (list = []));
    if (list.length === 0 || list[list.length - 1] < n) list.push(n);
    else list.splice(lowerBound(list, n), 0, n);
  }

  private removeLog(id: string): void {
    const key = this.logs.get(id);
    if (key === undefined) return;
    this.logs.delete(id);
    const count = (this.perBlock.get(key) ?? 1) - 1;
    if (count > 0) return void this.perBlock.set(key, count);
    this.perBlock.delete(key);
    const sep = key.lastIndexOf(':');
    const list = this.blocks.get(key.slice(0, sep));
    const n = BigInt(key.slice(sep + 1));
    if (!list) return;
    const i = lowerBound(list, n);
    if (list[i] === n) list.splice(i, 1);
  }

  private addEvent(event: MonitorEventRecord): void {
    if (event.kind !== 'match' || event.logId === null) return;
    const key = reportedKey(event.monitorId, event.logId, event.ruleId);
    this.eventKeys.set(event.id, key);
    let ids = this.reported.get(key);
    if (!ids) this.reported.set(key, (ids = new Set()));
    ids.add(event.id);
  }

  private removeEvent(id: string): void {
    const key = this.eventKeys.get(id);
    if (key === undefined) return;
    this.eventKeys.delete(id);
    const ids = this.reported.get(key);
    ids?.delete(id);
    if (ids?.size === 0) this.reported.delete(key);
  }
}

const registry = new WeakMap<Store, MonitorIndex>();

/** Match events written by the transaction in progress (it is not committed, so the index has not seen them). */
const pendingReports = new WeakMap<object, Map<string, string[]>>();

/** The engine calls this for every monitor event it writes in `tx`. */
export function noteReported(tx: object, event: MonitorEventRecord): void {
  if (event.kind !== 'match' || event.logId === null) return;
  let pending = pendingReports.get(tx);
  if (!pending) pendingReports.set(tx, (pending = new Map()));
  const key = reportedKey(event.monitorId, event.logId, event.ruleId);
  pending.set(key, [...(pending.get(key) ?? []), event.id]);
}

const reportedKey = (monitorId: string, logId: string, ruleId: string) => `${monitorId}|${logId}|${ruleId}`;

/** Blocks of `chain` holding logs written in `tx` (not yet in the index). */
function pendingBlocks(tx: Pick<StoreTx, 'written'>, chain: string): bigint[] {
  const out: bigint[] = [];
  for (const log of tx.written('chainLogs')) if (log.chain === chain) out.push(BigInt(log.blockNumber));
  return out;
}

/** The first index whose value is ≥ n (list ascending). */
function lowerBound(list: bigint[], n: bigint): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
