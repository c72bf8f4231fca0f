import { ASSETS } from '../catalog/index.ts';
import type { Profile } from '../catalog/catalog-types.ts';
import { iso, transact, type Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { balancesOf, deposit } from './ledger.ts';
import type { Account, AccountType, Balance } from './records.ts';

/** Accounts and deposits: what the owner does in the web session, exposed under /sim. */

export function createAccount(deps: Deps, input: { type: AccountType; label?: string }): Account {
  return transact(deps, (tx) => {
    const account: Account = {
      id: deps.random.uuid(),
      type: input.type,
      label: input.label ?? null,
      createdAt: iso(deps.clock.now()),
      recentRunStarts: [],
      activeRunIds: [],
    };
    tx.put('accounts', account);
    return account;
  });
}

export function requireAccount(deps: Deps, id: string): Account {
  const account = deps.store.get('accounts', id);
  if (!account) throw errors.notFound('This account was not found.');
  return account;
}

export function depositTo(deps: Deps, accountId: string, profile: Profile, amountAtomic: string): Balance {
  const account = requireAccount(deps, accountId);
  if (!ASSETS[profile].accountTypes.includes(account.type)) {
    throw errors.invalidInput(`profile: a ${account.type === 'solana' ? 'Solana' : 'EVM'} account cannot hold ${profile} funds.`);
  }
  if (amountAtomic === '0') throw errors.invalidInput('amountAtomic: a deposit must be greater than 0.');
  return transact(deps, (tx) => deposit(deps, tx, accountId, profile, amountAtomic));
}

export function balanceView(b: Balance) {
  return {
    profile: b.profile,
    assetId: b.assetId,
    depositedAtomic: b.depositedAtomic,
    availableAtomic: b.availableAtomic,
    reservedAtomic: b.reservedAtomic,
    pendingAtomic: b.pendingAtomic,
    chargedAtomic: b.chargedAtomic,
  };
}

export function accountView(deps: Deps, accountId: string) {
  const account = requireAccount(deps, accountId);
  const order = Object.keys(ASSETS);
  const balances = balancesOf(deps.store, accountId).sort((a, b) => order.indexOf(a.profile) - order.indexOf(b.profile));
  return { account: { id: account.id, type: account.type, label: account.label }, balances: balances.map(balanceView) };
}
