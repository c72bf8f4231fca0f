import { createAccount, depositTo } from './ledger/index.ts';
import type { Profile } from './catalog/catalog-types.ts';
import type { Deps } from './context.ts';
import { createKey, MONITOR_SCOPES, DEFAULT_SCOPES } from './keys/index.ts';
import type { AccountType } from './ledger/records.ts';

/** Demo data for a new store: one Solana and one EVM account, funded, with a key per profile. */
export interface DemoCredential {
  accountId: string;
  accountType: AccountType;
  profile: Profile;
  keyId: string;
  secret: string;
}

const DEMO: Array<{ type: AccountType; label: string; funds: Array<{ profile: Profile; depositAtomic: string; spendLimitAtomic: string }> }> = [
  {
    type: 'solana',
    label: 'Demo Solana account',
    funds: [
      { profile: 'solana_sol', depositAtomic: '10000000000', spendLimitAtomic: '5000000000' },
      { profile: 'solana_usdc', depositAtomic: '500000000', spendLimitAtomic: '250000000' },
    ],
  },
  {
    type: 'evm',
    label: 'Demo EVM account',
    funds: [
      { profile: 'local_custody', depositAtomic: '2000000000000000000', spendLimitAtomic: '1000000000000000000' },
      { profile: 'sim', depositAtomic: '1000000000', spendLimitAtomic: '500000000' },
    ],
  },
];

export function seedDemo(deps: Deps): DemoCredential[] {
  const credentials: DemoCredential[] = [];
  for (const spec of DEMO) {
    const account = createAccount(deps, { type: spec.type, label: spec.label });
    for (const fund of spec.funds) {
      if (fund.profile === 'sim' && deps.env === 'production') continue;
      depositTo(deps, account.id, fund.profile, fund.depositAtomic);
      const scopes = fund.profile === 'local_custody' ? [...DEFAULT_SCOPES, 'runs:cancel' as const, ...MONITOR_SCOPES] : [...DEFAULT_SCOPES, 'runs:cancel' as const];
      const { key, secret } = createKey(deps, account.id, { profile: fund.profile, spendLimitAtomic: fund.spendLimitAtomic, name: `demo ${fund.profile}`, scopes, expiresInDays: 90 });
      credentials.push({ accountId: account.id, accountType: spec.type, profile: fund.profile, keyId: key.id, secret });
    }
  }
  return credentials;
}
