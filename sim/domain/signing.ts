import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps, StoreTx } from './context.ts';

/**
 * Webhook signatures (spec 6.2): v1= + hex HMAC-SHA256 of
 * `<timestamp>.<event id>.<raw body>` keyed with the destination's signing secret.
 */
export function signPayload(secret: string, timestamp: string, eventId: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${eventId}.${body}`).digest('hex')}`;
}

export function signatureMatches(secret: string, timestamp: string, eventId: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signPayload(secret, timestamp, eventId, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Signing secrets are shown once and never stored: each is derived from a
 * per-store sealing key and the owner's id, the way a service keeps them
 * encrypted at rest. Revoking a destination destroys its secret for good
 * because a revoked destination is never signed for again.
 */
export function sealingKey(deps: Deps, tx: StoreTx): string {
  const existing = tx.getMeta<string>('sealingKey');
  if (existing) return existing;
  const key = deps.random.hex(32);
  tx.setMeta('sealingKey', key);
  return key;
}

export function derivedSecret(sealKey: string, purpose: 'destination' | 'monitor', id: string): string {
  return `whsec_${createHmac('sha256', sealKey).update(`${purpose}:${id}`).digest('base64url')}`;
}
