import type { Profile } from '../catalog/catalog-types.ts';
import type { Atomic } from '../money.ts';

/** Records of accounts, their balances and the ledger's entries. Stored, one interface per collection. */

export type AccountType = 'solana' | 'evm';

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
