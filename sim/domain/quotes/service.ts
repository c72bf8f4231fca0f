import { acceptQuote, type AcceptBody } from './acceptance.ts';
import type { Rail } from '../catalog/index.ts';
import type { Deps } from '../context.ts';
import { createQuote, type CreateQuoteBody } from './quotes.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import { billingFor } from '../runs/index.ts';

/**
 * Quotes and their acceptance (spec 4.3-4.5). Accept runs every check and the
 * ledger's reservation in one transaction and hands back the answer it stored
 * with the acceptance, so the route has nothing more to read.
 */
export function createQuotes(deps: Deps) {
  return {
    create: (key: ApiKeyRecord, rail: Rail, body: CreateQuoteBody) => createQuote(deps, key, rail, body).view,
    accept: (key: ApiKeyRecord, rail: Rail, quoteId: string, body: AcceptBody) => acceptQuote(deps, key, rail, quoteId, body).answer,
    billing: (key: ApiKeyRecord, rail: Rail, runId: string) => billingFor(deps, key, rail, runId),
  };
}

export type QuotesService = ReturnType<typeof createQuotes>;
