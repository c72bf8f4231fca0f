import type { StorePort as Store, StoreTx } from '../store-port.ts';
import { logId } from './log-id.ts';
import type { ChainLog, MonitorEventRecord } from './records.ts';

/**
 * In-memory indexes for the monitor engine, derived from the store (never
 * stored themselves):
 * - per chain, and per chain and log address, the sorted block numbers that
 *   hold chain logs (removed ones included: a reorg marks logs removed, it
 *   never deletes them), from the `chainLogs` collection, so the engine finds
 *   the next block with logs a monitor's rules can match and the logs of a
 *   window by binary search;
 * - per chain log, the monitor events reported from it (match events, and
 *   trigger events set off by it), in the store's order, so that a rescan
 *   finds what it reported already and a reorg finds what to retract without
 *   reading every event back from the archive (the caller checks each
 *   candidate through its transaction);
 * - per monitor, its retracted events (GET /v1/monitors/{id} lists them).
 *
 * The Simulator builds it from the store and hands it to the domain as a
 * declared dependency (Deps.monitorIndex), feeds it every committed
 * write through the store's afterCommit hook (`observe`) and rebuilds it when
 * the store is replaced (reset, snapshot import). Writes of the transaction in
 * progress are not in it yet: lookups add the transaction's own chain logs
 * (`tx.written('chainLogs')`) and the match events the engine noted in it
 * (`noteReported`), and check every candidate event through `tx.get`.
 */
export class MonitorIndex {
  /** chain, and `${chain}:${address}` → ascending block numbers holding at least one log (there). */
  private blocks = new Map<string, bigint[]>();
  /** `${list key}:${blockNumber}` → number of logs that block adds to that list. */
  private perBlock = new Map<string, number>();
  /** log id (`chain:block:index`, log-id.ts) → its address in lower case: the lists it is in. */
  private logs = new Map<string, string>();
  /** chain log id → the events reported from it and their places in the store's order. */
  private fromLog = new Map<string, { ids: string[]; order: number[] }>();
  /** Places handed out so far: the store's order of monitorEvents (rows are never deleted, only retracted). */
  private placed = 0;
  /** monitor id → ids of its retracted events. */
  private retracted = new Map<string, Set<string>>();

  constructor(private store: Store) {
    this.rebuild();
  }

  rebuild(): void {
    this.blocks.clear();
    this.perBlock.clear();
    this.logs.clear();
    this.fromLog.clear();
    this.placed = 0;
    this.retracted.clear();
    // Row by row: both collections are archived, and a list of every row would hold them all at once.
    for (const id of this.store.idsOf('chainLogs')) this.addLog(this.store.get('chainLogs', id)!);
    for (const id of this.store.idsOf('monitorEvents')) this.addEvent(this.store.get('monitorEvents', id)!);
  }

  /** Called for every committed write (the store's afterCommit hook). */
  observe(collection: string, id: string, row: unknown): void {
    if (collection === 'chainLogs') {
      if (row) this.addLog(row as ChainLog);
      else this.removeLog(id);
    } else if (collection === 'monitorEvents' && row) {
      this.addEvent(row as MonitorEventRecord);
    }
  }

  /**
   * The first block ≥ from holding a log on `chain` (this transaction's
   * included), or null; only logs at `addresses` (lower case) when given.
   */
  nextLogBlock(tx: Pick<StoreTx, 'written'>, chain: string, from: bigint, addresses: readonly string[] | null = null): bigint | null {
    let best: bigint | null = null;
    for (const key of addresses === null ? [chain] : addresses.map((a) => `${chain}:${a}`)) {
      const list = this.blocks.get(key);
      const i = list ? lowerBound(list, from) : 0;
      if (list && i < list.length && (best === null || list[i] < best)) best = list[i];
    }
    for (const log of tx.written('chainLogs')) {
      if (log.chain !== chain || (addresses !== null && !addresses.includes(log.address.toLowerCase()))) continue;
      const n = BigInt(log.blockNumber);
      if (n >= from && (best === null || n < best)) best = n;
    }
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
    const active = (id: string) => {
      const e = tx.get('monitorEvents', id);
      return e !== undefined && e.monitorId === monitorId && e.kind === 'match' && e.status === 'active' && e.logId === logId && e.ruleId === ruleId;
    };
    for (const id of this.fromLog.get(logId)?.ids ?? []) if (active(id)) return true;
    for (const id of pendingReports.get(tx)?.get(logId) ?? []) if (active(id)) return true;
    return false;
  }

  /**
   * Ids of the events reported from any of `logIds`, committed ones in the
   * store's order (what tx.all would list), then those noted in `tx`.
   */
  reportedFrom(tx: object, logIds: Iterable<string>): string[] {
    const committed: Array<[order: number, id: string]> = [];
    const pending: string[] = [];
    for (const logId of logIds) {
      const entry = this.fromLog.get(logId);
      entry?.ids.forEach((id, i) => committed.push([entry.order[i], id]));
      pending.push(...(pendingReports.get(tx)?.get(logId) ?? []));
    }
    committed.sort((a, b) => a[0] - b[0]);
    return [...new Set([...committed.map(([, id]) => id), ...pending])];
  }

  /** Ids of a monitor's retracted events (committed). */
  retractedOf(monitorId: string): string[] {
    return [...(this.retracted.get(monitorId) ?? [])];
  }

  private addLog(log: ChainLog): void {
    if (this.logs.has(log.id)) return;
    // Lower case as rules are compared (a log imported in a snapshot keeps the case it was written in).
    const address = log.address.toLowerCase();
    this.logs.set(log.id, address);
    const block = BigInt(log.blockNumber);
    this.addBlock(log.chain, block);
    this.addBlock(`${log.chain}:${address}`, block);
  }

  private addBlock(key: string, n: bigint): void {
    const count = this.perBlock.get(`${key}:${n}`) ?? 0;
    this.perBlock.set(`${key}:${n}`, count + 1);
    if (count > 0) return;
    let list = this.blocks.get(key);
    if (!list) this.blocks.set(key, (list = []));
    if (list.length === 0 || list[list.length - 1] < n) list.push(n);
    else list.splice(lowerBound(list, n), 0, n);
  }

  private removeLog(id: string): void {
    const address = this.logs.get(id);
    if (address === undefined) return;
    this.logs.delete(id);
    const [chain, block] = id.split(':');
    this.removeBlock(chain, BigInt(block));
    this.removeBlock(`${chain}:${address}`, BigInt(block));
  }

  private removeBlock(key: string, n: bigint): void {
    const count = (this.perBlock.get(`${key}:${n}`) ?? 1) - 1;
    if (count > 0) return void this.perBlock.set(`${key}:${n}`, count);
    this.perBlock.delete(`${key}:${n}`);
    const list = this.blocks.get(key);
    if (!list) return;
    const i = lowerBound(list, n);
    if (list[i] === n) list.splice(i, 1);
  }

  private addEvent(event: MonitorEventRecord): void {
    if (event.status === 'retracted') {
      let ids = this.retracted.get(event.monitorId);
      if (!ids) this.retracted.set(event.monitorId, (ids = new Set()));
      ids.add(event.id);
    }
    const source = sourceLog(event);
    let entry = this.fromLog.get(source);
    if (!entry) this.fromLog.set(source, (entry = { ids: [], order: [] }));
    // A rewrite (a retraction) keeps the event's place, as the store keeps its row's.
    if (entry.ids.includes(event.id)) return;
    entry.ids.push(event.id);
    entry.order.push((this.placed += 1));
  }
}

/** Match events written by the transaction in progress (it is not committed, so the index has not seen them). */
const pendingReports = new WeakMap<object, Map<string, string[]>>();

/** The engine calls this for every monitor event it writes in `tx`. */
export function noteReported(tx: object, event: MonitorEventRecord): void {
  let pending = pendingReports.get(tx);
  if (!pending) pendingReports.set(tx, (pending = new Map()));
  const source = sourceLog(event);
  pending.set(source, [...(pending.get(source) ?? []), event.id]);
}

/** The log an event was reported from: a match event names it; a trigger event carries the block and index of the log that set it off. */
const sourceLog = (event: MonitorEventRecord) => event.logId ?? logId(event.chain, event.blockNumber, event.logIndex ?? 0);

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
