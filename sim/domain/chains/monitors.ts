import type { ChainDeps } from './chain-deps.ts';
import { canonicalJson, sha256Hex } from '../canonical-json.ts';
import { headOf } from './chains.ts';
import { iso, transact } from '../context.ts';
import { deliveryView, derivedSecret, webhookUrlProblem } from '../deliveries/index.ts';
import { errors } from '../errors.ts';
import { scheduleTick, tickInTx } from './monitor-engine.ts';
import { newestRows } from '../newest-rows.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { MonitorEventRecord, MonitorRecord, MonitorRule, MonitorTrigger } from './records.ts';

/** Monitors (spec 2.13, 3.6, 4.10–4.13). */
export const MAX_ACTIVE_MONITORS = 5;
export const LIST_LIMIT = 100;
export const DETAIL_LIMIT = 200;

export interface CreateMonitorBody {
  name: string;
  chain: string;
  rules: MonitorRule[];
  durationSeconds: number;
  tickBudget: number;
  rpcBudget: number;
  idempotencyKey: string;
  versionId?: string;
  listingId?: string;
  triggers?: Array<Omit<MonitorTrigger, 'lookbackBlocks' | 'maximumRuns'> & { lookbackBlocks?: number; maximumRuns?: number }>;
  windowBlocks?: number;
  maximumLogs?: number;
  startBlock?: string;
  webhookUrl?: string;
  paymentProfile?: 'none' | 'sim' | 'local_custody';
  spendCapAtomic?: string;
  consentHash?: string;
}

/** Who is creating: an API key (POST /v1/monitors) or the signed-in owner (POST /sim/accounts/{id}/monitors). */
export type Creator = { kind: 'key'; key: ApiKeyRecord } | { kind: 'owner'; accountId: string };

export const WEBHOOK_REFUSED_IN_PRODUCTION =
  'Delivery to external destinations is not enabled for monitors created here; use in-app notifications (GET /v1/notifications) or a verified destination.';

function checkRules(body: CreateMonitorBody): void {
  const ruleIds = body.rules.map((r) => r.id);
  const dup = ruleIds.find((id, i) => ruleIds.indexOf(id) !== i);
  if (dup) throw errors.invalidInput(`rules: the rule id '${dup}' appears twice.`);
  const triggerIds = (body.triggers ?? []).map((t) => t.id);
  const dupTrigger = triggerIds.find((id, i) => triggerIds.indexOf(id) !== i);
  if (dupTrigger) throw errors.invalidInput(`triggers: the trigger id '${dupTrigger}' appears twice.`);
  body.triggers?.forEach((t, i) => {
    if (!ruleIds.includes(t.onRule)) throw errors.invalidInput(`triggers.${i}.onRule: no rule has the id '${t.onRule}'.`);
  });
}

/** Spec 4.10 rules 1–3, in that order, then the URL's own rules. */
function checkCreator(deps: ChainDeps, creator: Creator, body: CreateMonitorBody): void {
  if (creator.kind === 'key') {
    if ((body.paymentProfile !== undefined && body.paymentProfile !== 'none') || body.spendCapAtomic !== undefined) {
      throw errors.forbidden('An API key can create only unpaid monitors: paymentProfile must be omitted or none, and spendCapAtomic omitted.');
    }
    if (deps.env === 'production') {
      if (body.webhookUrl !== undefined) throw errors.forbidden(WEBHOOK_REFUSED_IN_PRODUCTION);
      throw errors.forbidden('In production, monitors are prepaid and need a signed-in session; an API key cannot create one.');
    }
  }
  if (body.paymentProfile === 'sim' && deps.env === 'production') throw errors.unavailable('The sim profile is not available in the production environment.');
  if (body.webhookUrl !== undefined) {
    if (deps.env === 'production') throw errors.forbidden(WEBHOOK_REFUSED_IN_PRODUCTION);
    const problem = webhookUrlProblem(body.webhookUrl, deps.env);
    if (problem) throw errors.invalidInput(`webhookUrl ${problem}.`);
  }
  if (body.listingId) {
    const listing = deps.store.get('listings', body.listingId);
    if (!listing || listing.category !== 'monitoring') throw errors.invalidInput('listingId: no monitoring agent listing has this id.');
    if (body.versionId && listing.currentVersionId !== body.versionId) throw errors.invalidInput('versionId: not the current version of listingId.');
  } else if (body.versionId && !deps.store.get('versions', body.versionId)) throw errors.invalidInput('versionId: no listing version has this id.');
}

export function createMonitor(deps: ChainDeps, creator: Creator, body: CreateMonitorBody): { monitor: MonitorRecord; webhookSecret: string | null; replayed: boolean } {
  const accountId = creator.kind === 'key' ? creator.key.accountId : creator.accountId;
  if (!deps.store.get('accounts', accountId)) throw errors.notFound('This account was not found.');
  checkCreator(deps, creator, body);
  checkRules(body);
  const bodyHash = sha256Hex(canonicalJson(body));
  return transact(deps, (tx) => {
    const idemId = `monitor:${accountId}:${body.idempotencyKey}`;
    const previous = tx.all('monitors').find((m) => m.accountId === accountId && m.idempotencyKey === body.idempotencyKey);
    if (previous) {
      if (previous.bodyHash !== bodyHash) throw errors.idempotencyConflict('monitor body');
      return { monitor: previous, webhookSecret: null, replayed: true };
    }
    void idemId;
    const active = tx.all('monitors').filter((m) => m.accountId === accountId && m.status === 'active').length;
    if (active >= MAX_ACTIVE_MONITORS) throw errors.runLimit(`This account already has ${MAX_ACTIVE_MONITORS} active monitors. Stop one first.`, 60);
    const now = deps.clock.now();
    const head = headOf(deps, tx, body.chain);
    const startBlock = body.startBlock ?? (head + 1n).toString();
    const monitor: MonitorRecord = {
      id: deps.random.uuid(),
      accountId,
      keyId: creator.kind === 'key' ? creator.key.id : null,
      name: body.name,
      chain: body.chain,
      versionId: body.versionId ?? (body.listingId ? tx.get('listings', body.listingId)!.currentVersionId : null),
      listingId: body.listingId ?? null,
      rules: body.rules,
      triggers: (body.triggers ?? []).map((t) => ({ ...t, lookbackBlocks: t.lookbackBlocks ?? 100, maximumRuns: t.maximumRuns ?? 5 })),
      windowBlocks: body.windowBlocks ?? 25,
      maximumLogs: body.maximumLogs ?? 50,
      durationSeconds: body.durationSeconds,
      tickBudget: body.tickBudget,
      ticksUsed: 0,
      rpcBudget: body.rpcBudget,
      rpcUsed: 0,
      startBlock,
      cursorBlock: startBlock,
      status: 'active',
      statusReason: null,
      endsAt: iso(now + body.durationSeconds * 1000),
      createdAt: iso(now),
      updatedAt: iso(now),
      webhookUrl: body.webhookUrl ?? null,
      paymentProfile: body.paymentProfile ?? 'none',
      spendCapAtomic: body.spendCapAtomic ?? null,
      consentHash: body.consentHash ?? null,
      idempotencyKey: body.idempotencyKey,
      bodyHash,
      windowCount: 0,
      eventCount: 0,
      missedCount: 0,
      triggerRuns: {},
    };
    tx.put('monitors', monitor);
    // A startBlock in the past is caught up at once.
    tickInTx(deps, tx, monitor.id);
    const created = tx.get('monitors', monitor.id)!;
    scheduleTick(deps, tx, created);
    const webhookSecret = body.webhookUrl ? derivedSecret(deps, 'monitor', monitor.id) : null;
    return { monitor: created, webhookSecret, replayed: false };
  });
}

export function monitorView(m: MonitorRecord) {
  return {
    id: m.id,
    status: m.status,
    name: m.name,
    versionId: m.versionId,
    chain: m.chain,
    statusReason: m.statusReason,
    endsAt: m.endsAt,
    tickBudget: m.tickBudget,
    ticksUsed: m.ticksUsed,
    rpcBudget: m.rpcBudget,
    rpcUsed: m.rpcUsed,
    webhook: m.webhookUrl ? { url: m.webhookUrl, signature: 'v1=HMAC-SHA256(<timestamp>.<event id>.<raw body>)' } : null,
    windowBlocks: m.windowBlocks,
    maximumLogs: m.maximumLogs,
    startBlock: m.startBlock,
    nextBlock: m.cursorBlock,
    rules: m.rules,
    triggers: m.triggers,
    paymentProfile: m.paymentProfile,
    createdAt: m.createdAt,
  };
}

/** Monitor routes answer ETH keys only (spec 4); SOL and USDC keys hold no monitor scopes. */
export function assertMonitorKey(key: ApiKeyRecord): void {
  if (key.profile !== 'local_custody') throw errors.otherEnvironment();
}

export function ownMonitor(deps: ChainDeps, key: ApiKeyRecord, id: string): MonitorRecord {
  assertMonitorKey(key);
  const m = deps.store.get('monitors', id);
  if (!m || m.accountId !== key.accountId) throw errors.notFound('This monitor was not found.');
  return m;
}

export function listMonitors(deps: ChainDeps, accountId: string) {
  return deps.store
    .all('monitors')
    .filter((m) => m.accountId === accountId)
    // Rows are kept in creation order; reversing first keeps monitors created at the same instant newest first too.
    .reverse()
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .slice(0, LIST_LIMIT)
    .map(monitorView);
}

export function monitorDetail(deps: ChainDeps, m: MonitorRecord) {
  const windows = [];
  for (let seq = Math.max(1, m.windowCount - DETAIL_LIMIT + 1); seq <= m.windowCount; seq += 1) {
    const w = deps.store.get('monitorWindows', `${m.id}:${String(seq).padStart(8, '0')}`);
    if (w) windows.push({ fromBlock: w.fromBlock, toBlock: w.toBlock, windows: w.windows, logsMatched: w.logsMatched, logsDropped: w.logsDropped, rpcUsed: w.rpcUsed, scannedAt: w.scannedAt });
  }
  // Spec 4.13: up to 200 events and 200 deliveries. Events and deliveries are archived and
  // grouped by monitor (sim/domain/collections.ts): only the rows answered are read back.
  const events = newestRows(deps.store, 'monitorEvents', m.id, DETAIL_LIMIT).sort((a, b) => b.seq - a.seq);
  const retracted = deps.monitorIndex
    .retractedOf(m.id)
    .map((id) => deps.store.get('monitorEvents', id))
    .filter((e): e is MonitorEventRecord => e?.status === 'retracted')
    .sort((a, b) => b.seq - a.seq);
  const eventView = (e: MonitorEventRecord) => ({
    id: e.id, ruleId: e.ruleId, kind: e.kind, blockNumber: e.blockNumber, blockHash: e.blockHash, transactionHash: e.transactionHash, logIndex: e.logIndex,
    event: e.event, explanation: e.explanation, fields: e.fields, status: e.status, observedAt: e.observedAt, retractedAt: e.retractedAt,
  });
  const deliveries = newestRows(deps.store, 'deliveries', m.id, DETAIL_LIMIT).map(deliveryView);
  return {
    monitor: monitorView(m),
    windows: windows.reverse(),
    missedWindows: windows.filter((w) => w.logsDropped > 0),
    events: events.map(eventView),
    retractedEvents: retracted.slice(0, DETAIL_LIMIT).map(eventView),
    deliveries,
    subscriptions: deps.store.all('subscriptions').filter((s) => s.monitorId === m.id).map((s) => ({ destinationId: s.destinationId, createdAt: s.createdAt })),
    deliveryLog: deliveries.flatMap((d) => d.attempts.map((a) => ({ deliveryId: d.id, purpose: d.purpose, ...a }))).slice(0, DETAIL_LIMIT),
  };
}

/** Stops at once; repeating returns the current state (spec 3.6). */
export function stopMonitor(deps: ChainDeps, m: MonitorRecord): MonitorRecord {
  if (m.status === 'stopped') return m;
  return transact(deps, (tx) => {
    const next: MonitorRecord = { ...m, status: 'stopped', statusReason: 'stopped by the owner', updatedAt: iso(deps.clock.now()) };
    tx.put('monitors', next);
    tx.delete('jobs', `monitor.tick:${m.id}`);
    return next;
  });
}
