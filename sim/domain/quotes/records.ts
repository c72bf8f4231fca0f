import type { Profile } from '../catalog/catalog-types.ts';
import type { Atomic } from '../money.ts';

/** Records of accounts, balances, the ledger, quotes, acceptances and reservations. Stored, one interface per collection. */

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

export interface QuoteRecord {
  id: string;
  accountId: string;
  keyId: string;
  listingId: string;
  versionId: string;
  profile: Profile;
  input: Record<string, unknown>;
  resultPolicy: 'complete_only' | 'canonical_metadata';
  priceRevision: number;
  contractHash: string;
  createdAt: string;
  expiresAt: string;
  /** The quote object of spec 2.7 as answered at creation (bound terms never change). */
  view: Record<string, unknown>;
  maximumBuyerDebitAtomic: Atomic;
  acceptedBy: { idempotencyKey: string; runId: string; reservationId: string; contractHash: string } | null;
}

/** Account-wide idempotency keys of accept (id `${accountId}:${idempotencyKey}`). */
/** The answer of an acceptance (spec 2.10): the run as it was queued, the reservation, the rail notice. */
export interface AcceptanceAnswer {
  run: Record<string, unknown>;
  reservation: { id: string; quoteId: string; maximumAtomic: string };
  notice: string;
}

export interface AcceptanceRecord {
  id: string;
  accountId: string;
  idempotencyKey: string;
  quoteId: string;
  contractHash: string;
  runId: string;
  reservationId: string;
  notice: string;
  /** What the acceptance answered, kept so that a replay answers it again. */
  answer: AcceptanceAnswer;
}

export interface ReservationRecord {
  id: string;
  quoteId: string;
  runId: string;
  accountId: string;
  profile: Profile;
  maximumAtomic: Atomic;
}
