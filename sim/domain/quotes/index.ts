/**
 * Quotes and their acceptance (spec 4.3-4.5). The folder's public face: only what
 * code outside it imports (the domain's other files take the stored shapes,
 * records.ts, as types).
 */
export { acceptQuote, type AcceptBody } from './acceptance.ts';
export { createQuote, type CreateQuoteBody } from './quotes.ts';
export { createQuotes, type QuotesService } from './service.ts';
