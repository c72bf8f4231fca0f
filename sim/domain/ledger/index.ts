/**
 * The reservation ledger (spec 4.4-4.5 and the two-phase transfers of docs/architecture.md):
 * accounts, their balances, deposits, reserve, settle and reconcile, and the history.
 * The folder's public face: only what code outside it imports (the domain's other
 * files take the stored shapes, records.ts, as types).
 */
export { accountView, createAccount, depositTo } from './accounts.ts';
// deposit and readBalance: the pricing test moves a balance by hand.
export { assertBalanceInvariant, deposit, readBalance, reconcileHold, reserve, settleReservation } from './ledger.ts';
export { createLedger, type LedgerService } from './service.ts';
