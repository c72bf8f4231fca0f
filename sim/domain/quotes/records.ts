import type { Profile } from '../catalog/catalog-types.ts';
import type { Atomic } from '../money.ts';

/** Records of quotes, acceptances and reservations. Stored, one interface per collection. */

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

/** The answer of an acceptance (spec 2.10): the run as it was queued, the reservation, the rail notice. */
export interface AcceptanceAnswer {
  run: Record<string, unknown>;
  reservation: { id: string; quoteId: string; maximumAtomic: string };
  notice: string;
}

/** Account-wide idempotency keys of accept (id `${accountId}:${idempotencyKey}`). */
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
