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

const BY_MESSAGE: Array<[RegExp, string]> = [
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

export function refusalMeaning(code: string, status: number | null, message: string): string | null {
  if (BY_CODE[code]) return BY_CODE[code];
  for (const [pattern, meaning] of BY_MESSAGE) if (pattern.test(message)) return meaning;
  return status !== null ? (BY_STATUS[status] ?? null) : null;
}
