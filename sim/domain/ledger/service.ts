import { accountView, balanceView, createAccount, depositTo } from './accounts.ts';
import type { Profile } from '../catalog/catalog-types.ts';
import type { Deps } from '../context.ts';
import { historyOf } from './ledger.ts';
import type { AccountType } from './records.ts';

/** Accounts and their balances (contract section 2): what the control API creates, deposits and reads. */
export function createLedger(deps: Deps) {
  const summary = (a: { id: string; type: AccountType; label: string | null }) => ({ id: a.id, type: a.type, label: a.label });
  return {
    createAccount: (input: { type: AccountType; label?: string }) => summary(createAccount(deps, input)),
    accounts: () => deps.store.all('accounts').map(summary),
    account: (accountId: string) => accountView(deps, accountId),
    history(accountId: string) {
      accountView(deps, accountId);
      return historyOf(deps.store, accountId);
    },
    deposit: (accountId: string, profile: Profile, amountAtomic: string) => balanceView(depositTo(deps, accountId, profile, amountAtomic)),
  };
}

export type LedgerService = ReturnType<typeof createLedger>;
