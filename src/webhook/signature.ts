import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Spec 6.2's signature scheme, as a receiver implements it from the spec:
 * `v1=` then the lowercase hex HMAC-SHA256 of `<timestamp>.<event id>.<raw body>`
 * keyed with the destination's signing secret. Written here rather than
 * imported from the simulator, so a user's receiver (and this package's
 * verifier) depends on the spec, not on sim/; test/webhook/signature-agreement.test.ts
 * holds the two implementations to the same answers.
 */
export function webhookSignature(secret: string, timestamp: string, eventId: string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${eventId}.${rawBody}`).digest('hex')}`;
}

/** Spec 6.2: compared in constant time, so the comparison reveals nothing of the expected signature. */
export function isSignatureValid(secret: string, timestamp: string, eventId: string, rawBody: string, signature: string): boolean {
  const expected = Buffer.from(webhookSignature(secret, timestamp, eventId, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
