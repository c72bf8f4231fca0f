/**
 * What a refusal means for the person at the console: spec part 7's codes and
 * statuses, turned into the next thing to do. The code and message always
 * come from the service; this only adds the advice.
 */
const BY_CODE: Record<string, string> = {
  // Spec 7, ledger codes.
  quote_expired: 'The quote is more than 240 seconds old: create a new quote (press q).',
  quote_contract_mismatch: 'The hash sent is not the quote’s contract hash, or the quote was accepted with another hash: create a new quote.',
  quote_already_accepted: 'This quote was accepted before with another idempotency key: open its run instead, or create a new quote.',
  idempotency_conflict: 'The idempotency key was already used for another quote: accept again (the console makes a fresh key).',
  insufficient_available_credit: 'The available balance is below the quote maximum: deposit more (control API) or wait for reservations to settle.',
  // Spec 7, general codes.
  invalid_input: 'The request does not match what the service accepts; the message names the field.',
  not_found: 'There is no such route.',
  internal_error: 'The service failed unexpectedly; retry an idempotent call later.',
  network_error: 'No answer arrived: is the simulator or service still running?',
  poll_timeout: 'The run was still not terminal; refresh to keep polling.',
};

/** Production's own refusals, in their own words (spec 2.2, 4, 4.10 rules 2 and 3). */
const MONITOR_NEEDS_SESSION =
  'Spec 4.10 rule 2: in production an API key cannot create monitors in any form: production monitors are prepaid and need the signed-in web session. Create it there, or rehearse monitors with --env test.';
const MONITOR_WEBHOOK_URL =
  'Spec 4.10 rule 3: production does not deliver a monitor’s webhookUrl to external destinations: read events as in-app notifications (screen 6), or subscribe a verified destination in the web session.';
const SIM_PROFILE = 'Spec 2.2: the sim profile is the local rehearsal credit and answers 503 in production: use a key in SOL, USDC or ETH.';
const REHEARSAL_ROUTES = 'Spec 4: the /v1/rehearsal/... routes exist for local rehearsal only and answer 503 in production: use the custody or solana-custody rail of a SOL, USDC or ETH key.';
const PRODUCTION_DESTINATION =
  'In production, webhooks go only to public https addresses the service can reach; a receiver on http://127.0.0.1 (such as the console’s inbox) cannot get them there.';

const BY_MESSAGE: Array<[RegExp, string]> = [
  // The simulator's own wording of production's refusals, recognised whatever environment the console was told.
  [/need a signed-in session/i, MONITOR_NEEDS_SESSION],
  [/delivery to external destinations is not enabled/i, MONITOR_WEBHOOK_URL],
  [/sim profile is not available/i, SIM_PROFILE],
  [/rehearsal routes are not available/i, REHEARSAL_ROUTES],
  [/spend limit/i, 'Committed spend plus the quote maximum would exceed the key’s lifetime spend limit (spec 5): a key’s grant cannot change.'],
  [/does not accept/i, 'This listing has no offer in the key’s asset (spec 4.3): pick an agent priced in it (the catalog’s price column shows — otherwise).'],
  [/different payment environment/i, 'A key uses one asset and one rail (spec 5): pick an agent offered in the key’s asset.'],
  [/not allowed to use this listing/i, 'The key is restricted to other listings (spec 5).'],
  [/does not have the scope/i, 'The key lacks the scope this route needs (spec 5); scopes are fixed at creation.'],
  [/valid, active API key/i, 'The key is missing, expired or revoked (spec 3.5): make a new key in the web session (control API here).'],
];

const BY_STATUS: Record<number, string> = {
  400: 'Malformed request or invalid value: fix the named field and try again.',
  401: 'The key is not accepted here.',
  403: 'Not allowed for this key: scope, asset, listing or spend limit.',
  404: 'Not found, or not visible to this key.',
  409: 'A conflict with the current state: change something before retrying.',
  410: 'The stored export expired: request the export again (press e).',
  429: 'A rate or run limit: wait and retry (the quote stays valid until it expires).',
  503: 'A payment rail, the research provider or export storage is unavailable (see the faults screen): try later.',
};

/** Where a refusal came from, when known: the environment and the request it answered. */
export interface RefusalContext {
  environment?: 'test' | 'production' | null;
  method?: string;
  path?: string;
}

/**
 * Production refuses by route whatever the wording (spec part 7 leaves the
 * 503 codes and most messages unstated), so there the route decides.
 */
function productionMeaning(status: number | null, message: string, { method, path = '' }: RefusalContext): string | null {
  if (path.startsWith('/v1/rehearsal/') && status === 503) return REHEARSAL_ROUTES;
  if (method === 'POST' && path === '/v1/monitors' && status === 403 && !/scope/i.test(message)) return /webhook/i.test(message) ? MONITOR_WEBHOOK_URL : MONITOR_NEEDS_SESSION;
  if (/\/destinations$/.test(path) && status === 400 && /https/i.test(message)) return PRODUCTION_DESTINATION;
  if (status === 503 && /\bsim\b/i.test(message)) return SIM_PROFILE;
  return null;
}

export function refusalMeaning(code: string, status: number | null, message: string, context: RefusalContext = {}): string | null {
  const production = context.environment === 'production' ? productionMeaning(status, message, context) : null;
  if (production) return production;
  if (BY_CODE[code]) return BY_CODE[code];
  for (const [pattern, meaning] of BY_MESSAGE) if (pattern.test(message)) return meaning;
  return status !== null ? (BY_STATUS[status] ?? null) : null;
}
