/** Quotes, acceptance and the reservation ledger (spec 4.3-4.5), accounts and their balances. The folder's public face: what the rest of the simulator (HTTP, wiring, tests) imports. */
export * from './acceptance.ts';
export * from './accounts.ts';
export * from './ledger-service.ts';
export * from './ledger.ts';
export * from './notices.ts';
export * from './quotes.ts';
export * from './records.ts';
export * from './service.ts';
