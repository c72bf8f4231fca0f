import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signatureMatches, signPayload } from '../../sim/domain/signing.ts';
import { isSignatureValid, webhookSignature } from '../../src/webhook/signature.ts';

/**
 * src/webhook implements spec 6.2's signature from the spec, not from sim/:
 * the simulator's signer and the receiver's verifier must still agree on every
 * input, or a receiver built on src/webhook would refuse real deliveries.
 */
const secret = fc.string({ minLength: 1 }).map((s) => `whsec_${s}`);
const timestamp = fc.integer({ min: 0, max: 99_999_999_999 }).map(String);
const eventId = fc.string({ minLength: 1, maxLength: 40 });
const body = fc.json();

describe('webhook signature: simulator and receiver agree', () => {
  it('the receiver computes the signature the simulator sends, and accepts it', () => {
    fc.assert(
      fc.property(secret, timestamp, eventId, body, (s, t, e, b) => {
        const sent = signPayload(s, t, e, b);
        expect(webhookSignature(s, t, e, b)).toBe(sent);
        expect(sent).toMatch(/^v1=[0-9a-f]{64}$/);
        expect(isSignatureValid(s, t, e, b, sent)).toBe(true);
      }),
    );
  });

  it('both refuse the same altered signatures, bodies and secrets', () => {
    fc.assert(
      fc.property(secret, timestamp, eventId, body, fc.string(), (s, t, e, b, other) => {
        const sent = signPayload(s, t, e, b);
        for (const [sec, bod, sig] of [[s, b, other], [s, `${b} `, sent], [`${s}x`, b, sent], [s, b, sent.toUpperCase()]] as const) {
          expect(isSignatureValid(sec, t, e, bod, sig)).toBe(signatureMatches(sec, t, e, bod, sig));
        }
      }),
    );
  });
});
