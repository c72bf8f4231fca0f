import type { Profile } from './catalog-types.ts';
import type { Atomic } from './money.ts';

/** Records kept in the store, one interface per collection. */

export type AccountType = 'solana' | 'evm';
export type Environment = 'test' | 'production';

export interface Account {
  id: string;
  type: AccountType;
  label: string | null;
  createdAt: string;
  /** Run starts of the last 24 hours (ISO times) and the ids of queued or running runs: the run limits of spec 8. */
  recentRunStarts: string[];
  activeRunIds: string[];
}

/** One account's money in one profile (id `${accountId}:${profile}`). */
export interface Balance {
  id: string;
  accountId: string;
  profile: Profile;
  assetId: string;
  depositedAtomic: Atomic;
  availableAtomic: Atomic;
  reservedAtomic: Atomic;
  pendingAtomic: Atomic;
  chargedAtomic: Atomic;
}

/** One movement of a balance, for the ledger history. */
export interface LedgerEntry {
  id: string;
  accountId: string;
  profile: Profile;
  at: string;
  kind: 'deposit' | 'reserve' | 'charge' | 'release' | 'hold' | 'reconcile';
  amountAtomic: Atomic;
  runId: string | null;
  /** The balance right after this movement. */
  after: Pick<Balance, 'availableAtomic' | 'reservedAtomic' | 'pendingAtomic' | 'chargedAtomic'>;
}

export const SCOPES = [
  'catalog:read',
  'quotes:write',
  'runs:read',
  'runs:cancel',
  'billing:read',
  'monitors:read',
  'monitors:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  last4: string;
  /** SHA-256 of the secret, hex; the secret itself is never stored (spec 5.7). */
  secretHash: string;
  scopes: Scope[];
  profile: Profile;
  listingIds: string[] | null;
  spendLimitAtomic: Atomic;
  /** Reserved maximums of accepted quotes not yet settled plus charged amounts (spec 5, spend limit). */
  spendCommittedAtomic: Atomic;
  rateLimitPerMinute: number;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

/** Index from a secret hash to its key, for authentication in one lookup. */
export interface KeySecretIndex {
  id: string;
  keyId: string;
}

export interface Job {
  id: string;
  dueAtMs: number;
  seq: number;
  kind: string;
  ref: string;
}
