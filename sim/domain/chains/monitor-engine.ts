import type { ChainDeps } from './chain-deps.ts';
import { headOf, hashOf, logsBetween, msUntilBlock, nextLogBlock } from './chains.ts';
import { iso, type StoreTx } from '../context.ts';
import { queueDeliveries } from '../deliveries/index.ts';
import { schedule, unschedule } from '../jobs/index.ts';
import { explain, ruleMatches, watchedAddresses } from './monitor-rules.ts';
import { noteReported } from './monitor-index.ts';
import { notify } from './notifications.ts';
import type { ChainLog, MonitorEventRecord, MonitorRecord, MonitorStatus, MonitorTrigger } from './records.ts';

/**
 * The monitor engine on the virtual clock. A monitor scans windows of
 * windowBlocks blocks; each scanned window spends one tick and one read
 * (eth_getLogs), each trigger run two more reads. Runs of empty windows are
 * accounted in one step (a window is empty to a monitor when it holds no log at
 * an address its rules watch) and the next tick is scheduled for the window
 * holding the next such log, the window that uses up the budget, or endsAt, whichever is
 * first: advancing 30 days costs work per log, not per block or window.
 */
export const TRIGGER_RPC_COST = 2;
const TICK = 'monitor.tick';

const minBig = (...xs: bigint[]) => xs.reduce((a, b) => (b < a ? b : a));

function endMonitor(deps: ChainDeps, tx: StoreTx, m: MonitorRecord, status: MonitorStatus, reason: string): MonitorRecord {
  const next = { ...m, status, statusReason: reason, updatedAt: iso(deps.clock.now()) };
  tx.put('monitors', next);
  unschedule(tx, TICK, m.id);
  if (status !== 'stopped') {
    notify(deps, tx, { accountId: m.accountId, monitorId: m.id, kind: 'monitor.status', title: `Monitor ${status}`, body: `${m.name} is ${status}: ${reason}.`, event: null });
  }
  return next;
}

function recordWindow(deps: ChainDeps, tx: StoreTx, m: MonitorRecord, from: bigint, windows: bigint, matched: number, dropped: number, rpc: number): MonitorRecord {
  const seq = m.windowCount + 1;
  const to = from + windows * BigInt(m.windowBlocks) - 1n;
  tx.put('monitorWindows', {
    id: `${m.id}:${String(seq).padStart(8, '0')}`,
    monitorId: m.id,
    seq,
    fromBlock: from.toString(),
    toBlock: to.toString(),
    windows: Number(windows),
    logsMatched: matched,
    logsDropped: dropped,
    rpcUsed: rpc,
    scannedAt: iso(deps.clock.now()),
  });
  return {
    ...m,
    windowCount: seq,
    missedCount: m.missedCount + (dropped > 0 ? 1 : 0),
    cursorBlock: (to + 1n).toString(),
    ticksUsed: m.ticksUsed + Number(windows),
    rpcUsed: m.rpcUsed + rpc,
  };
}

function addEvent(deps: ChainDeps, tx: StoreTx, m: MonitorRecord, fields: Omit<MonitorEventRecord, 'id' | 'monitorId' | 'accountId' | 'seq' | 'chain' | 'status' | 'observedAt' | 'retractedAt'>): MonitorRecord {
  const seq = m.eventCount + 1;
  const event: MonitorEventRecord = { ...fields, id: deps.random.uuid(), monitorId: m.id, accountId: m.accountId, seq, chain: m.chain, status: 'active', observedAt: iso(deps.clock.now()), retractedAt: null };
  tx.put('monitorEvents', event);
  noteReported(tx, event);
  const next = { ...m, eventCount: seq };
  notify(deps, tx, { accountId: m.accountId, monitorId: m.id, kind: 'monitor.event', title: `${m.name}: ${String(event.event.name ?? event.kind)}`, body: event.explanation, event: { ...event.event, eventId: event.id, blockNumber: event.blockNumber } });
  queueDeliveries(deps, tx, next, event, 'monitor.event');
  return next;
}

function matchEvent(log: ChainLog, ruleId: string, explanation: string) {
  return {
    ruleId,
    kind: 'match' as const,
    logId: log.id,
    blockNumber: log.blockNumber,
    blockHash: '',
    transactionHash: log.transactionHash,
    logIndex: log.logIndex,
    event: { name: log.event, address: log.address, args: log.args },
    explanation,
    fields: { ...log.args, address: log.address },
  };
}

/** token-authority-check and sender-approvals-check over lookbackBlocks before the matched log. */
function runTrigger(deps: ChainDeps, tx: StoreTx, m: MonitorRecord, trigger: MonitorTrigger, log: ChainLog) {
  const to = BigInt(log.blockNumber);
  const from = to - BigInt(trigger.lookbackBlocks) < 0n ? 0n : to - BigInt(trigger.lookbackBlocks);
  const window = logsBetween(deps, tx, m.chain, from, to);
  const found =
    trigger.action === 'token-authority-check'
      ? window.filter((l) => l.address === log.address && ['Upgraded', 'AdminChanged', 'BeaconUpgraded', 'OwnershipTransferred'].includes(l.event))
      : window.filter((l) => l.event === 'Approval' && (l.args.owner ?? '').toLowerCase() === (log.args.from ?? '').toLowerCase());
  const subject = trigger.action === 'token-authority-check' ? `authority changes on ${log.address}` : `approvals granted by ${log.args.from ?? 'the sender'}`;
  return {
    ruleId: trigger.id,
    kind: 'trigger' as const,
    logId: null,
    blockNumber: log.blockNumber,
    blockHash: '',
    transactionHash: log.transactionHash,
    logIndex: log.logIndex,
    event: { name: trigger.action, onRule: trigger.onRule, findings: found.map((l) => ({ event: l.event, address: l.address, blockNumber: l.blockNumber, args: l.args })) },
    explanation: `Trigger ${trigger.id} (${trigger.action}) checked blocks ${from}–${to}: ${found.length} ${subject}.`,
    fields: { findings: String(found.length), lookbackBlocks: String(trigger.lookbackBlocks) },
  };
}

/** Scans one window that holds logs; events are capped at maximumLogs, the rest dropped (a missed window). */
function scanWindow(deps: ChainDeps, tx: StoreTx, m: MonitorRecord, from: bigint, to: bigint): MonitorRecord {
  const matches: Array<{ log: ChainLog; ruleId: string; explanation: string }> = [];
  // A rescan after a reorg covers blocks scanned before: logs still canonical were reported already.
  const index = deps.monitorIndex;
  for (const log of logsBetween(deps, tx, m.chain, from, to)) {
    for (const rule of m.rules) if (ruleMatches(rule, log) && !index.isReported(tx, m.id, log.id, rule.id)) matches.push({ log, ruleId: rule.id, explanation: explain(rule, log) });
  }
  const kept = matches.slice(0, m.maximumLogs);
  let next = m;
  let rpc = 1;
  for (const match of kept) {
    next = addEvent(deps, tx, next, { ...matchEvent(match.log, match.ruleId, match.explanation), blockHash: hashOf(tx, m.chain, BigInt(match.log.blockNumber)) });
    for (const trigger of m.triggers) {
      const runs = next.triggerRuns[trigger.id] ?? 0;
      if (trigger.onRule !== match.ruleId || runs >= trigger.maximumRuns || next.rpcUsed + rpc + TRIGGER_RPC_COST > m.rpcBudget) continue;
      rpc += TRIGGER_RPC_COST;
      next = { ...next, triggerRuns: { ...next.triggerRuns, [trigger.id]: runs + 1 } };
      next = addEvent(deps, tx, next, { ...runTrigger(deps, tx, m, trigger, match.log), blockHash: hashOf(tx, m.chain, BigInt(match.log.blockNumber)) });
    }
  }
  return recordWindow(deps, tx, next, from, 1n, kept.length, matches.length - kept.length, rpc);
}

function nextTickAt(deps: ChainDeps, tx: StoreTx, m: MonitorRecord): number {
  const w = BigInt(m.windowBlocks);
  const cursor = BigInt(m.cursorBlock);
  const remaining = BigInt(Math.max(0, Math.min(m.tickBudget - m.ticksUsed, m.rpcBudget - m.rpcUsed)));
  const candidates = [cursor + remaining * w - 1n];
  const logBlock = nextLogBlock(deps, tx, m.chain, cursor, watchedAddresses(m.rules));
  if (logBlock !== null) candidates.push(cursor + ((logBlock - cursor) / w) * w + w - 1n);
  const block = minBig(...candidates);
  return Math.min(deps.clock.now() + msUntilBlock(deps, tx, m.chain, block), Date.parse(m.endsAt));
}

export function scheduleTick(deps: ChainDeps, tx: StoreTx, m: MonitorRecord): void {
  if (m.status === 'active') schedule(tx, TICK, m.id, nextTickAt(deps, tx, m));
}

/** Processes every window completed by now; ends the monitor on expiry or spent budget. */
export function tickInTx(deps: ChainDeps, tx: StoreTx, monitorId: string): void {
  let m = tx.get('monitors', monitorId);
  if (!m || m.status !== 'active') return;
  // At endsAt the windows completed by then are still accounted (they were scanned), then the monitor expires.
  const expired = deps.clock.now() >= Date.parse(m.endsAt);
  const head = headOf(deps, tx, m.chain);
  const w = BigInt(m.windowBlocks);
  const watched = watchedAddresses(m.rules);
  for (;;) {
    if (m.ticksUsed >= m.tickBudget) return void endMonitor(deps, tx, m, 'exhausted', 'tickBudget used up');
    if (m.rpcUsed + 1 > m.rpcBudget) return void endMonitor(deps, tx, m, 'exhausted', 'rpcBudget used up');
    const from = BigInt(m.cursorBlock);
    const to = from + w - 1n;
    if (to > head) break;
    const logBlock = nextLogBlock(deps, tx, m.chain, from, watched);
    if (logBlock !== null && logBlock <= to) {
      m = scanWindow(deps, tx, m, from, to);
      continue;
    }
    const complete = (head - from + 1n) / w;
    const beforeLog = logBlock === null ? complete : (logBlock - from) / w;
    const budget = BigInt(Math.min(m.tickBudget - m.ticksUsed, m.rpcBudget - m.rpcUsed));
    const empty = minBig(complete, beforeLog, budget);
    m = recordWindow(deps, tx, m, from, empty, 0, 0, Number(empty));
  }
  if (expired) return void endMonitor(deps, tx, m, 'expired', 'the monitor reached endsAt');
  m = { ...m, updatedAt: iso(deps.clock.now()) };
  tx.put('monitors', m);
  scheduleTick(deps, tx, m);
}


/** New logs on a chain: every active monitor there recomputes when it next needs to look. */
export function wakeMonitors(deps: ChainDeps, tx: StoreTx, chain: string): void {
  for (const m of tx.all('monitors')) if (m.chain === chain && m.status === 'active') scheduleTick(deps, tx, m);
}

/**
 * A reorg removed logs: events reported from them are retracted (notification and
 * monitor.event.retracted deliveries), and monitors rescan the replaced blocks.
 */
export function retractForReorg(deps: ChainDeps, tx: StoreTx, chain: string, removed: ChainLog[], firstReplaced: bigint): void {
  const removedIds = new Set(removed.map((l) => l.id));
  // Trigger events carry the block, transaction and index of the log that set them off.
  const removedSources = new Set(removed.map((l) => `${l.blockNumber}:${l.transactionHash}:${l.logIndex}`));
  const fromRemovedLog = (e: MonitorEventRecord) => (e.logId ? removedIds.has(e.logId) : removedSources.has(`${e.blockNumber}:${e.transactionHash}:${e.logIndex}`));
  // Events are archived: the index names those reported from the removed logs, in the order tx.all would list them.
  for (const id of deps.monitorIndex.reportedFrom(tx, removedIds)) {
    const event = tx.get('monitorEvents', id)!;
    if (event.chain !== chain || event.status !== 'active' || !fromRemovedLog(event)) continue;
    const retracted = { ...event, status: 'retracted' as const, retractedAt: iso(deps.clock.now()) };
    tx.put('monitorEvents', retracted);
    const monitor = tx.get('monitors', event.monitorId)!;
    notify(deps, tx, { accountId: event.accountId, monitorId: event.monitorId, kind: 'monitor.event.retracted', title: `${monitor.name}: event retracted`, body: `A reorganization of ${chain} removed block ${event.blockNumber}; the event reported from it is retracted.`, event: { eventId: event.id, blockNumber: event.blockNumber, status: 'retracted' } });
    queueDeliveries(deps, tx, monitor, retracted, 'monitor.event.retracted');
  }
  for (const m of tx.all('monitors')) {
    if (m.chain !== chain || m.status !== 'active') continue;
    // Rescan from the start of the window that holds the first replaced block.
    const start = BigInt(m.startBlock);
    const w = BigInt(m.windowBlocks);
    const windowStart = firstReplaced < start ? start : start + ((firstReplaced - start) / w) * w;
    const rewound = BigInt(m.cursorBlock) > windowStart ? { ...m, cursorBlock: windowStart.toString() } : m;
    if (rewound !== m) tx.put('monitors', rewound);
    scheduleTick(deps, tx, rewound);
  }
}
