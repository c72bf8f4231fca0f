/**
 * The one registry of spec error codes, statuses and messages (spec part 7).
 * Domain code throws ServiceError; the HTTP layer turns it into
 * { error: { code, message } } and never adds anything else.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const LEDGER_CODES = [
  'quote_contract_mismatch',
  'quote_expired',
  'quote_already_accepted',
  'idempotency_conflict',
  'insufficient_available_credit',
] as const;

const ledger = (code: (typeof LEDGER_CODES)[number], reason: string) =>
  new ServiceError(409, code, `Accounting rejected this action: ${reason}.`);

export const errors = {
  invalidInput: (message: string) => new ServiceError(400, 'invalid_input', message),
  invalidCursor: () => new ServiceError(400, 'invalid_input', 'The catalog page cursor is invalid. Start again from the first page.'),
  bothCredentials: () =>
    new ServiceError(400, 'request_rejected', 'Send either a session cookie or an API key, not both.'),
  unauthenticated: () => new ServiceError(401, 'request_rejected', 'A valid, active API key is required.'),
  unauthenticatedControl: () => new ServiceError(401, 'request_rejected', 'The control API requires the x-understudy-control-token header.'),
  keyNotAccepted: () => new ServiceError(401, 'request_rejected', 'API keys are not accepted for this route.'),
  missingScope: () => new ServiceError(403, 'request_rejected', 'This API key does not have the scope required for this route.'),
  otherEnvironment: () => new ServiceError(403, 'request_rejected', 'This API key is restricted to a different payment environment.'),
  listingNotAllowed: () => new ServiceError(403, 'request_rejected', 'This API key is not allowed to use this listing.'),
  spendLimit: () => new ServiceError(403, 'request_rejected', 'Accepting this quote would exceed the API key spend limit.'),
  forbidden: (message: string) => new ServiceError(403, 'request_rejected', message),
  runNotFound: () => new ServiceError(404, 'not_found', 'This run was not found.'),
  listingNotFound: () => new ServiceError(404, 'not_found', 'This agent listing was not found.'),
  noReceipt: () => new ServiceError(404, 'not_found', 'This run has no settlement receipt.'),
  notFound: (message: string) => new ServiceError(404, 'not_found', message),
  conflict: (message: string) => new ServiceError(409, 'request_rejected', message),
  contractMismatch: () => ledger('quote_contract_mismatch', 'the accepted contract hash does not match the quote'),
  quoteExpired: () => ledger('quote_expired', 'the quote expired 240 seconds after it was created'),
  alreadyAccepted: () => ledger('quote_already_accepted', 'the quote was already accepted with a different idempotency key'),
  idempotencyConflict: (what = 'quote') => ledger('idempotency_conflict', `the idempotency key was already used for a different ${what}`),
  insufficientCredit: () => ledger('insufficient_available_credit', 'the available balance is below the quote maximum'),
  exportExpired: () => new ServiceError(410, 'export_expired', 'The stored export has expired. Request the export again.'),
  keyRateLimited: (retryAfterSeconds: number) =>
    new ServiceError(429, 'request_rejected', 'This API key exceeded its request rate limit. Try again shortly.', retryAfterSeconds),
  tooManyRequests: (retryAfterSeconds: number) => new ServiceError(429, 'request_rejected', 'Too many requests. Try again shortly.', retryAfterSeconds),
  runLimit: (message: string, retryAfterSeconds: number) => new ServiceError(429, 'request_rejected', message, retryAfterSeconds),
  unavailable: (message: string) => new ServiceError(503, 'service_unavailable', message),
  /** The store's disk refused the change (full, failing): it was taken back, so retrying later is safe. */
  notSaved: () => new ServiceError(503, 'service_unavailable', 'The change could not be saved: the simulator could not write its store. Nothing was applied; try again later.'),
  internal: () => new ServiceError(500, 'internal_error', 'An unexpected error occurred.'),
};
