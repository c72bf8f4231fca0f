/** A demo account as the library hands it out. */
export interface DemoAccount {
  id: string;
  type: 'solana' | 'evm';
}

/** The demo key secrets by profile; `sim` is absent in production (there is no rehearsal rail there). */
export interface DemoKeys {
  local_custody: string;
  solana_sol: string;
  solana_usdc: string;
  sim?: string;
}

/** The demo accounts by chain family: `solana` holds the Solana profiles, `evm` local_custody and sim. */
export interface DemoAccounts {
  solana: DemoAccount;
  evm: DemoAccount;
}

/** What the demo seeding answers, as far as the library hands it on (sim/domain/demo.ts has the whole record). */
interface SeededKey {
  accountId: string;
  accountType: DemoAccount['type'];
  profile: keyof DemoKeys;
  secret: string;
}

export function demoAccounts(credentials: SeededKey[]): DemoAccounts {
  const of = (type: DemoAccount['type']): DemoAccount => {
    const found = credentials.find((c) => c.accountType === type);
    if (!found) throw new Error(`understudy: the demo data has no ${type} account`);
    return { id: found.accountId, type };
  };
  return { solana: of('solana'), evm: of('evm') };
}

export function demoKeys(credentials: SeededKey[]): DemoKeys {
  const keys: Partial<DemoKeys> = {};
  for (const c of credentials) keys[c.profile] = c.secret;
  for (const profile of ['local_custody', 'solana_sol', 'solana_usdc'] as const) {
    if (!keys[profile]) throw new Error(`understudy: the demo data has no ${profile} key`);
  }
  return keys as DemoKeys;
}
