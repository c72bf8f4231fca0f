import type { WebhookSender } from '../../runtime/webhook-sender.ts';
import { iso, transact, type Deps } from '../context.ts';
import { ANSWER_TIMEOUT_MS, cancelDeliveries, judge, signedHeaders } from './deliveries.ts';
import { errors } from '../errors.ts';
import type { DestinationRecord } from './records.ts';
import { derivedSecret } from './signing.ts';
import { addressPolicy } from './webhook-address.ts';
import { webhookUrlProblem } from './webhook-url.ts';

/** Webhook destinations (spec 3.8, 6.2), configured by the owner in the web session: /sim here. */
export const MAX_DESTINATIONS = 10;
export const MAX_VERIFICATION_ATTEMPTS = 10;
const CHAT_CODE_LIFETIME_MS = 10 * 60_000;

export function destinationView(d: DestinationRecord) {
  return {
    id: d.id,
    url: d.url,
    kind: d.kind,
    state: d.state,
    verificationAttempts: d.verificationAttempts,
    verificationAttemptsLeft: MAX_VERIFICATION_ATTEMPTS - d.verificationAttempts,
    lastError: d.lastError,
    consecutiveFailures: d.consecutiveFailures,
    createdAt: d.createdAt,
    verifiedAt: d.verifiedAt,
    revokedAt: d.revokedAt,
    chatCodeExpiresAt: d.chatCode?.expiresAt ?? null,
  };
}

export function requireDestination(deps: Deps, id: string): DestinationRecord {
  const d = deps.store.get('destinations', id);
  if (!d) throw errors.notFound('This destination was not found.');
  return d;
}

export function createDestination(deps: Deps, accountId: string, input: { url: string; kind?: 'https' | 'chat' }) {
  if (!deps.store.get('accounts', accountId)) throw errors.notFound('This account was not found.');
  const kind = input.kind ?? 'https';
  const problem = webhookUrlProblem(input.url, deps.env);
  if (problem) throw errors.invalidInput(`url ${problem}.`);
  return transact(deps, (tx) => {
    const live = tx.all('destinations').filter((d) => d.accountId === accountId && d.state !== 'revoked');
    if (live.length >= MAX_DESTINATIONS) throw errors.conflict(`This account already has ${MAX_DESTINATIONS} destinations that are not revoked. Revoke one first.`);
    const destination: DestinationRecord = {
      id: deps.random.uuid(),
      accountId,
      url: input.url,
      kind,
      state: 'needs_verification',
      verificationAttempts: 0,
      lastError: null,
      consecutiveFailures: 0,
      createdAt: iso(deps.clock.now()),
      verifiedAt: null,
      revokedAt: null,
      chatCode: null,
    };
    tx.put('destinations', destination);
    return { destination, signingSecret: derivedSecret(deps, 'destination', destination.id) };
  });
}

function startAttempt(deps: Deps, id: string): DestinationRecord {
  return transact(deps, (tx) => {
    const d = tx.get('destinations', id);
    if (!d) throw errors.notFound('This destination was not found.');
    if (d.state === 'revoked') throw errors.conflict('This destination is revoked.');
    if (d.state !== 'needs_verification') throw errors.conflict(`This destination is already ${d.state}.`);
    if (d.verificationAttempts >= MAX_VERIFICATION_ATTEMPTS) throw errors.conflict(`This destination used all ${MAX_VERIFICATION_ATTEMPTS} verification attempts.`);
    const next = { ...d, verificationAttempts: d.verificationAttempts + 1 };
    tx.put('destinations', next);
    return next;
  });
}

/**
 * Sends the ownership challenge now: a signed POST of
 * { type: 'service.destination.verification', destinationId, challenge } that
 * must be answered 2xx with JSON { challenge } echoing it. Chat destinations get
 * an 8-digit code instead, confirmed with POST /sim/destinations/{id}/confirm.
 */
export async function verifyDestination(deps: Deps, send: WebhookSender, id: string): Promise<{ destination: DestinationRecord; chatCode?: string }> {
  const d = startAttempt(deps, id);
  if (d.kind === 'chat') {
    return transact(deps, (tx) => {
      const code = deps.random.token('digits', 8);
      const next = { ...tx.get('destinations', id)!, chatCode: { code, expiresAt: iso(deps.clock.now() + CHAT_CODE_LIFETIME_MS) } };
      tx.put('destinations', next);
      return { destination: next, chatCode: code };
    });
  }
  const { challenge, deliveryId, secret } = transact(deps, (tx) => ({ challenge: deps.random.token('hex', 32), deliveryId: deps.random.uuid(), secret: derivedSecret(deps, 'destination', id) }));
  const body = JSON.stringify({ type: 'service.destination.verification', destinationId: id, challenge });
  const result = await send({ url: d.url, headers: signedHeaders(deps, secret, deliveryId, body), body, timeoutMs: ANSWER_TIMEOUT_MS, addressPolicy: addressPolicy(deps.env) });
  return transact(deps, (tx) => {
    const at = iso(deps.clock.now());
    const { final: _final, ...attempt } = judge(result, 1, at, (answer) => {
      try {
        return JSON.parse(answer)?.challenge === challenge ? null : 'challenge-not-echoed';
      } catch {
        return 'challenge-not-echoed';
      }
    });
    tx.put('deliveries', {
      id: deliveryId,
      accountId: d.accountId,
      purpose: 'verification',
      monitorId: null,
      destinationId: id,
      webhookUrl: null,
      monitorEventId: null,
      type: 'service.destination.verification',
      body,
      state: attempt.outcome === 'delivered' ? 'delivered' : 'failed',
      attempts: [attempt],
      createdAt: at,
      nextAttemptAt: null,
    });
    const current = tx.get('destinations', id)!;
    const next: DestinationRecord =
      attempt.outcome === 'delivered' && current.state === 'needs_verification'
        ? { ...current, state: 'verified', verifiedAt: at, lastError: null }
        : { ...current, lastError: attempt.error };
    tx.put('destinations', next);
    return { destination: next };
  });
}

export function confirmChatCode(deps: Deps, id: string, code: string): DestinationRecord {
  return transact(deps, (tx) => {
    const d = tx.get('destinations', id);
    if (!d) throw errors.notFound('This destination was not found.');
    if (d.kind !== 'chat' || d.state !== 'needs_verification' || !d.chatCode) throw errors.conflict('This destination has no chat code waiting for confirmation.');
    if (deps.clock.now() >= Date.parse(d.chatCode.expiresAt)) {
      tx.put('destinations', { ...d, chatCode: null, lastError: 'code-expired' });
      return { ...d, chatCode: null, lastError: 'code-expired' };
    }
    const next: DestinationRecord = d.chatCode.code === code ? { ...d, state: 'verified', verifiedAt: iso(deps.clock.now()), chatCode: null, lastError: null } : { ...d, lastError: 'code-mismatch' };
    tx.put('destinations', next);
    return next;
  });
}

/** Irreversible: pending deliveries and subscriptions are cancelled, the secret is never used again. */
export function revokeDestination(deps: Deps, id: string): DestinationRecord {
  const d = requireDestination(deps, id);
  if (d.state === 'revoked') return d;
  return transact(deps, (tx) => {
    const next: DestinationRecord = { ...d, state: 'revoked', revokedAt: iso(deps.clock.now()), chatCode: null };
    tx.put('destinations', next);
    for (const sub of tx.all('subscriptions')) if (sub.destinationId === id) tx.delete('subscriptions', sub.id);
    cancelDeliveries(deps, tx, (delivery) => delivery.destinationId === id);
    return next;
  });
}

export function subscribe(deps: Deps, monitorId: string, destinationId: string) {
  return transact(deps, (tx) => {
    const monitor = tx.get('monitors', monitorId);
    if (!monitor) throw errors.notFound('This monitor was not found.');
    const d = tx.get('destinations', destinationId);
    if (!d || d.accountId !== monitor.accountId) throw errors.notFound('This destination was not found.');
    if (d.state !== 'verified') throw errors.conflict(`Only verified destinations can be subscribed; this one is ${d.state}.`);
    const id = `${monitorId}:${destinationId}`;
    const existing = tx.get('subscriptions', id);
    if (existing) return existing;
    const subscription = { id, monitorId, destinationId, createdAt: iso(deps.clock.now()) };
    tx.put('subscriptions', subscription);
    return subscription;
  });
}

/** Unsubscribing cancels the pending deliveries of that pair at once. */
export function unsubscribe(deps: Deps, monitorId: string, destinationId: string): { cancelledDeliveries: number } {
  return transact(deps, (tx) => {
    const id = `${monitorId}:${destinationId}`;
    if (!tx.get('subscriptions', id)) throw errors.notFound('This monitor is not subscribed to that destination.');
    tx.delete('subscriptions', id);
    return { cancelledDeliveries: cancelDeliveries(deps, tx, (d) => d.monitorId === monitorId && d.destinationId === destinationId) };
  });
}
