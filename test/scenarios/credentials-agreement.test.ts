import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactCredentials as simRedacts } from '../../sim/domain/credentials.ts';
import { redactCredentials } from '../../src/scenario/credentials.ts';

/**
 * Recordings and transcripts redact credentials with src/scenario's own
 * pattern (written from spec 5 and 6.2, so src/scenario does not import sim/).
 * The simulator redacts its messages with its own: both must hide the same text.
 */
const base64url = fc.stringMatching(/^[A-Za-z0-9_-]{1,50}$/);
const credential = fc.tuple(fc.constantFrom('svc_test_', 'svc_live_', 'whsec_', 'svc_prod_', 'whsec', 'SVC_TEST_'), base64url).map(([p, s]) => p + s);
const text = fc.array(fc.oneof(credential, fc.string(), fc.constantFrom(' ', '/', '"', '?key=')), { maxLength: 8 }).map((parts) => parts.join(''));

describe('credential redaction: scenario tools and simulator agree', () => {
  it('redact the same text the same way', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(redactCredentials(t)).toBe(simRedacts(t));
        expect(redactCredentials(t, '<x>')).toBe(simRedacts(t, '<x>'));
      }),
    );
  });

  it('leave no key or signing secret behind', () => {
    const secret = `svc_test_${'A'.repeat(43)} and whsec_abc-_1`;
    expect(redactCredentials(secret)).toBe('[redacted credential] and [redacted credential]');
  });
});
