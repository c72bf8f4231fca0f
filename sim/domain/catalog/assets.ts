import type { Profile } from './catalog-types.ts';

/** The payment asset of each profile (spec 2.2). */
export interface Asset {
  profile: Profile;
  assetId: string;
  asset: { namespace: string; cluster: string; kind: string; decimals: number };
  currencyLabel: string;
  /** The account type whose keys may use this profile. `sim` serves both. */
  accountTypes: Array<'solana' | 'evm'>;
  /** The rail (route prefix under /v1) this profile quotes and accepts on. */
  rail: Rail;
}

export type Rail = 'solana-custody' | 'custody' | 'rehearsal';

/** The stablecoin mint of Solana mainnet-beta. */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

export const ASSETS: Record<Profile, Asset> = {
  solana_sol: {
    profile: 'solana_sol',
    assetId: 'solana:mainnet-beta/native',
    asset: { namespace: 'solana', cluster: 'mainnet-beta', kind: 'native', decimals: 9 },
    currencyLabel: 'SOL',
    accountTypes: ['solana'],
    rail: 'solana-custody',
  },
  solana_usdc: {
    profile: 'solana_usdc',
    assetId: `solana:mainnet-beta/spl:${USDC_MINT}`,
    asset: { namespace: 'solana', cluster: 'mainnet-beta', kind: `spl:${USDC_MINT}`, decimals: 6 },
    currencyLabel: 'USDC',
    accountTypes: ['solana'],
    rail: 'solana-custody',
  },
  local_custody: {
    profile: 'local_custody',
    assetId: 'eip155:4663/native',
    asset: { namespace: 'eip155', cluster: '4663', kind: 'native', decimals: 18 },
    currencyLabel: 'ETH on the chainx chain',
    accountTypes: ['evm'],
    rail: 'custody',
  },
  // The rehearsal credit: a local-only asset with 6 decimals, for either account type.
  sim: {
    profile: 'sim',
    assetId: 'sim:local/credit',
    asset: { namespace: 'sim', cluster: 'local', kind: 'credit', decimals: 6 },
    currencyLabel: 'SIM (rehearsal credit)',
    accountTypes: ['solana', 'evm'],
    rail: 'rehearsal',
  },
};

export function assetByAssetId(assetId: string): Asset | undefined {
  return Object.values(ASSETS).find((a) => a.assetId === assetId);
}
