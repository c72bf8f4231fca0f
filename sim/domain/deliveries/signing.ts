import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../context.ts';

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
 * Signing secrets are shown once and never stored: each is an HMAC of the
 * owner's id under the sealing key, which is kept out of the store
 * (docs/decisions.md, Threat model), the way a service keeps them encrypted at
 * rest. Revoking a destination destroys its secret for good because a revoked
 * destination is never signed for again.
 */
export function derivedSecret(deps: Pick<Deps, 'sealing'>, purpose: 'destination' | 'monitor', id: string): string {
  return `whsec_${deps.sealing.mac(`${purpose}:${id}`).toString('base64url')}`;
}

/**
 * A new key secret's 43 base64url characters (spec 2.2): nanoid's customRandom
 * over its own alphabet, the spec's 64 characters, fed the generator's bytes
 * sealed with the sealing key (HMAC blocks, as many bytes as drawn). The store's
 * ratchet state alone cannot be run back to the bytes, and the bytes alone
 * (were they known) give nothing without the key.
 */
export function sealedToken(deps: Pick<Deps, 'sealing' | 'random'>, purpose: 'key'): string {
  return deps.random.token('url', 43, (drawn) => {
    const blocks: Buffer[] = [];
    for (let i = 0, have = 0; have < drawn.length; i += 1, have += 32) blocks.push(deps.sealing.mac(`${purpose}:`, drawn, String(i)));
    return Buffer.concat(blocks).subarray(0, drawn.length);
  });
}
