/**
 * Anything shaped like an API key secret (svc_test_/svc_live_) or a webhook
 * signing secret (whsec_). Spec 7: no message ever contains a credential, and
 * the simulator never writes one where it was not meant to be shown.
 */
export const CREDENTIAL_PATTERN = /(?:svc_(?:test|live)_|whsec_)[A-Za-z0-9_-]+/g;

export const redactCredentials = (text: string, replacement = '[redacted credential]') => text.replace(CREDENTIAL_PATTERN, replacement);
