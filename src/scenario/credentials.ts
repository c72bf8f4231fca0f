/**
 * What a credential looks like from outside (spec 5: an API key is svc_test_
 * or svc_live_ then base64url characters; spec 6.2: a signing secret is shown
 * once, whsec_...). Recordings and transcripts must never hold one (spec 7).
 * Written from the spec so src/scenario does not depend on sim/ at run time;
 * test/scenarios/credentials-agreement.test.ts holds it to the simulator's own
 * redaction, so the two cannot drift.
 */
const CREDENTIAL = /(?:svc_(?:test|live)_|whsec_)[A-Za-z0-9_-]+/g;

export const redactCredentials = (text: string, replacement = '[redacted credential]') => text.replace(CREDENTIAL, replacement);
