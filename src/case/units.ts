import { formatProfileAmount } from '../tui/amount.ts';

/** The payment profiles (spec 2.2) by asset id, and how a case writes an amount: human units and the exact atomic string. */
export type Profile = 'sim' | 'local_custody' | 'solana_sol' | 'solana_usdc';

const ASSET_IDS: Array<[RegExp, Profile]> = [
  [/^eip155:4663\/native$/, 'local_custody'],
  [/^solana:mainnet-beta\/native$/, 'solana_sol'],
  [/^solana:mainnet-beta\/spl:[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'solana_usdc'],
  [/^sim:local\/credit$/, 'sim'],
];

export function profileOfAssetId(assetId: string): Profile | null {
  return ASSET_IDS.find(([pattern]) => pattern.test(assetId))?.[1] ?? null;
}

/** The account type whose keys pay in a profile (sim serves both; a case uses an EVM account for it). */
export const accountTypeOf = (profile: Profile): 'solana' | 'evm' => (profile === 'solana_sol' || profile === 'solana_usdc' ? 'solana' : 'evm');

/** The route prefix under /v1 that quotes, accepts and bills in a profile (spec part 4). */
export const railOfProfile = (profile: Profile): string => (profile === 'local_custody' ? 'custody' : profile === 'sim' ? 'rehearsal' : 'solana-custody');

/** "0.0073535 ETH (7353500000000000 atomic)". */
export const money = (atomic: string, profile: Profile | null): string => formatProfileAmount(atomic, profile, { exact: true });
