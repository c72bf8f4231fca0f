import type { WebhookRequest, WebhookResult } from '../../runtime/webhook-sender.ts';
import { iso, type Deps, type StoreTx } from '../context.ts';
import { schedule, unschedule } from '../jobs/index.ts';
import type { DeliveryAttempt, DeliveryRecord, DestinationRecord } from './records.ts';
import type { MonitorEventRecord, MonitorRecord, NotificationRecord } from '../chains/records.ts';
import { derivedSecret, signPayload } from './signing.ts';
import { addressPolicy } from './webhook-address.ts';

/**
 * Signed webhook delivery (spec 6.2): one delivery per event and destination,
 * at most 5 attempts waiting 5, 10, 20 and 40 s on the virtual clock, the same
 * x-service-event-id on every attempt with a fresh timestamp and signature.
 * The timestamp is the signing time (Deps.signingTime: by default the real time
 * the attempt is sent); the payload and the delivery log keep simulated time.
 * A redirect or a refused address fails the delivery at once.
 */
export const RETRY_DELAYS_SECONDS = [5, 10, 20, 40];
export const MAX_ATTEMPTS = 5;
export const ANSWER_TIMEOUT_MS = 5_000;
export const FAILING_AFTER = 3;
export const USER_AGENT = 'service-destination/0.1';

export function webhookBody(monitor: MonitorRecord, event: MonitorEventRecord, type: 'monitor.event' | 'monitor.event.retracted'): string {
  return JSON.stringify({
    type,
    eventId: event.id,
    monitorId: monitor.id,
    monitorName: monitor.name,
    chain: event.chain,
    ruleId: event.ruleId,
    event: event.event,
    explanation: event.explanation,
    fields: event.fields,
    blockNumber: event.blockNumber,
    blockHash: event.blockHash,
    transactionHash: event.transactionHash,
    logIndex: event.logIndex,
    status: type === 'monitor.event' ? 'active' : 'retracted',
    observedAt: event.observedAt,
  });
}

/** Queues one delivery per subscribed verified destination (and the monitor's own webhookUrl). */
export function queueDeliveries(deps: Deps, tx: StoreTx, monitor: MonitorRecord, event: MonitorEventRecord, type: 'monitor.event' | 'monitor.event.retracted'): void {
  const targets: Array<{ destinationId: string | null; webhookUrl: string | null }> = [];
  for (const sub of tx.all('subscriptions')) {
    if (sub.monitorId !== monitor.id) continue;
    const destination = tx.get('destinations', sub.destinationId);
    if (destination && (destination.state === 'verified' || destination.state === 'failing')) targets.push({ destinationId: destination.id, webhookUrl: null });
  }
  if (monitor.webhookUrl) targets.push({ destinationId: null, webhookUrl: monitor.webhookUrl });
  // Most monitors deliver nowhere: the 30-day fast-forward (10,000 events) spent 2 % of its profile on bodies nobody sent.
  if (targets.length === 0) return;
  const body = webhookBody(monitor, event, type);
  for (const target of targets) {
    const delivery: DeliveryRecord = {
      id: deps.random.uuid(),
      accountId: monitor.accountId,
      purpose: 'delivery',
      monitorId: monitor.id,
      ...target,
      monitorEventId: event.id,
      type,
      body,
      state: 'pending',
      attempts: [],
      createdAt: iso(deps.clock.now()),
      nextAttemptAt: iso(deps.clock.now()),
    };
    tx.put('deliveries', delivery);
    schedule(tx, 'delivery.attempt', delivery.id, deps.clock.now());
  }
}

/**
 * Deliveries are archived; the pending ones are found through their attempt
 * jobs (resident): queueDeliveries schedules one with every delivery, a retry
 * schedules the next, and the job is removed only after the attempt that
 * settles the delivery is recorded.
 */
function pendingDeliveries(tx: StoreTx): DeliveryRecord[] {
  const pending: DeliveryRecord[] = [];
  for (const job of tx.all('jobs')) {
    if (job.kind !== 'delivery.attempt') continue;
    const d = tx.get('deliveries', job.ref);
    if (d?.state === 'pending') pending.push(d);
  }
  return pending;
}

export function cancelDeliveries(deps: Deps, tx: StoreTx, match: (d: DeliveryRecord) => boolean): number {
  let cancelled = 0;
  for (const d of pendingDeliveries(tx)) {
    if (!match(d)) continue;
    tx.put('deliveries', { ...d, state: 'cancelled', nextAttemptAt: null });
    unschedule(tx, 'delivery.attempt', d.id);
    cancelled += 1;
  }
  return cancelled;
}

function signingSecretFor(deps: Deps, delivery: DeliveryRecord): string {
  return delivery.destinationId ? derivedSecret(deps, 'destination', delivery.destinationId) : derivedSecret(deps, 'monitor', delivery.monitorId!);
}

export function signedHeaders(deps: Deps, secret: string, deliveryId: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(deps.signingTime() / 1000));
  return {
    'content-type': 'application/json',
    'x-service-signature': signPayload(secret, timestamp, deliveryId, body),
    'x-service-event-id': deliveryId,
    'x-service-timestamp': timestamp,
    'user-agent': USER_AGENT,
  };
}

/**
 * The reason a refusing receiver names in a small JSON body ({ error: { code,
 * message } }, { error } or { message }), on one short line: a bare status
 * leaves the owner guessing which of spec 6.2's rules the receiver applied.
 */
function refusalReason(body: string): string | null {
  if (body.length > 4096) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const { error, message } = parsed as { error?: unknown; message?: unknown };
  const parts = error && typeof error === 'object' ? [(error as { code?: unknown }).code, (error as { message?: unknown }).message] : [error, message];
  const words = parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(': ');
  return words ? words.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 200) : null;
}

/** Turns an answer into an attempt record; `final` when no retry may follow. */
export function judge(result: WebhookResult, attempt: number, at: string, accept: (body: string) => string | null = () => null): DeliveryAttempt & { final: boolean } {
  if (result.kind === 'refused') return { at, attempt, outcome: 'refused', httpStatus: null, error: result.error, final: true };
  if (result.kind === 'failed') return { at, attempt, outcome: 'failed', httpStatus: null, error: result.error, final: false };
  if (result.status >= 300 && result.status < 400) return { at, attempt, outcome: 'failed', httpStatus: result.status, error: 'redirect-not-followed', final: true };
  if (result.status < 200 || result.status >= 300) {
    const reason = refusalReason(result.body);
    return { at, attempt, outcome: 'failed', httpStatus: result.status, error: reason ? `http-${result.status}: ${reason}` : `http-${result.status}`, final: false };
  }
  const problem = accept(result.body);
  return problem ? { at, attempt, outcome: 'failed', httpStatus: result.status, error: problem, final: true } : { at, attempt, outcome: 'delivered', httpStatus: result.status, error: null, final: true };
}

function updateDestination(tx: StoreTx, destinationId: string | null, delivered: boolean): DestinationRecord | null {
  if (!destinationId) return null;
  const d = tx.get('destinations', destinationId);
  if (!d || d.state === 'revoked') return null;
  const failures = delivered ? 0 : d.consecutiveFailures + 1;
  const state = delivered ? (d.state === 'failing' ? 'verified' : d.state) : failures >= FAILING_AFTER && d.state === 'verified' ? 'failing' : d.state;
  // Most attempts change nothing here: rewriting the row anyway would journal it once per delivery.
  if (failures === d.consecutiveFailures && state === d.state) return d;
  const next = { ...d, consecutiveFailures: failures, state };
  tx.put('destinations', next);
  return next;
}

/** What one attempt sends, fixed before it goes out. */
export interface PreparedAttempt {
  deliveryId: string;
  request: WebhookRequest;
}

/**
 * The 'delivery.attempt' job is prepared, sent and recorded in three steps so
 * that attempts due at one instant can wait on their receivers together
 * (sim/domain/jobs/scheduler.ts). This step reads what to send; null when the delivery
 * was settled or cancelled meanwhile.
 */
export function prepareAttempt(deps: Deps, deliveryId: string): PreparedAttempt | null {
  const delivery = deps.store.get('deliveries', deliveryId);
  if (!delivery || delivery.state !== 'pending') return null;
  const url = delivery.destinationId ? deps.store.get('destinations', delivery.destinationId)?.url : delivery.webhookUrl;
  if (!url) return null;
  const secret = signingSecretFor(deps, delivery);
  const headers = signedHeaders(deps, secret, delivery.id, delivery.body);
  return { deliveryId, request: { url, headers, body: delivery.body, timeoutMs: ANSWER_TIMEOUT_MS, addressPolicy: addressPolicy(deps.env) } };
}

/**
 * How a delivery that finally failed tells its monitor's owner: the chains
 * part's notify, handed in by the job handlers (sim/domain/job-handlers.ts).
 * The monitors queue deliveries; deliveries importing the chains' code back
 * would close an import cycle through the two faces.
 */
type Notify = (deps: Deps, tx: StoreTx, n: Pick<NotificationRecord, 'accountId' | 'monitorId' | 'kind' | 'title' | 'body' | 'event'>) => unknown;

/** The answer (or its absence) recorded in the job's transaction: delivered, retried later, or failed with a notification. */
export function recordAttempt(deps: Deps, tx: StoreTx, prepared: PreparedAttempt, result: WebhookResult, notify: Notify): void {
  const { deliveryId, request } = prepared;
  const current = tx.get('deliveries', deliveryId);
  // Revoked or unsubscribed while the request was in flight: the cancellation stands.
  if (!current || current.state !== 'pending') return;
  const at = iso(deps.clock.now());
  const attempt = judge(result, current.attempts.length + 1, at);
  const { final, ...recorded } = attempt;
  const attempts = [...current.attempts, recorded];
  if (attempt.outcome === 'delivered') {
    tx.put('deliveries', { ...current, attempts, state: 'delivered', nextAttemptAt: null });
    updateDestination(tx, current.destinationId, true);
    return;
  }
  if (!final && attempts.length < MAX_ATTEMPTS) {
    const due = deps.clock.now() + RETRY_DELAYS_SECONDS[attempts.length - 1] * 1000;
    tx.put('deliveries', { ...current, attempts, nextAttemptAt: iso(due) });
    schedule(tx, 'delivery.attempt', current.id, due);
    return;
  }
  tx.put('deliveries', { ...current, attempts, state: 'failed', nextAttemptAt: null });
  updateDestination(tx, current.destinationId, false);
  if (current.monitorId) {
    notify(deps, tx, {
      accountId: current.accountId,
      monitorId: current.monitorId,
      kind: 'monitor.delivery.failed',
      title: 'Webhook delivery failed',
      body: `Delivery ${current.id} of ${current.type} to ${request.url} failed after ${attempts.length} attempt(s): ${attempt.error}.`,
      event: { deliveryId: current.id, monitorEventId: current.monitorEventId, destinationId: current.destinationId, lastError: attempt.error },
    });
  }
}

export function deliveryView(d: DeliveryRecord) {
  return {
    id: d.id,
    purpose: d.purpose,
    monitorId: d.monitorId,
    destinationId: d.destinationId,
    webhookUrl: d.webhookUrl,
    monitorEventId: d.monitorEventId,
    type: d.type,
    state: d.state,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt,
    attempts: d.attempts,
  };
}
