import type { Profile } from '../catalog/catalog-types.ts';
import type { Atomic } from '../money.ts';

/** Records of runs, their events, billing and export artifacts. Stored, one interface per collection. */

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';
export type Outcome = 'succeeded' | 'partial' | 'failed';

/** How a run ends: from the listing's default, a magic input, or POST /sim/runs/{id}/script. */
export interface RunPlan {
  outcome: Outcome;
  rpcCalls: number;
  unconfirmedRpcCalls: number;
  modelCostAtomic: Atomic;
  durationSeconds: number;
  failure: 'platform' | 'research' | null;
  /** Sections a partial report could not cover; a token report's five canonical facts are name, symbol, decimals, totalSupply, bytecode. */
  coverageGaps: string[];
  /** understudy: the size, in bytes of JSON, the report is written at (padded with filler); absent: as built. */
  outputBytes?: number;
  source: 'listing-default' | 'magic-input' | 'script';
}

export interface RunRecord {
  id: string;
  accountId: string;
  keyId: string;
  quoteId: string;
  reservationId: string;
  listingId: string;
  versionId: string;
  profile: Profile;
  input: Record<string, unknown>;
  resultPolicy: 'complete_only' | 'canonical_metadata';
  status: RunStatus;
  mode: string;
  attempt: number;
  rpcUsed: number;
  /** Reads whose receipt is confirmed / not (yet) confirmed, so far. */
  confirmedReads: number;
  unconfirmedReads: number;
  modelCostUsedAtomic: Atomic;
  deadlineAt: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  output: Record<string, unknown> | null;
  error: unknown;
  plan: RunPlan;
  /** Steps already performed of the plan (the worker's cursor). */
  stepIndex: number;
  /** Chain and block the report's evidence was pinned at (token research). */
  pinned: { chain: string; blockNumber: string; blockHash: string } | null;
  eventCount: number;
}

export interface RunEventRecord {
  /** `${runId}:${seq}` (zero-padded): one run's events are found without scanning others. */
  id: string;
  eventId: string;
  runId: string;
  seq: number;
  step: string;
  message: string;
  createdAt: string;
}

export interface Settlement {
  outcome: 'succeeded' | 'partial' | 'failed' | 'cancelled' | 'expired';
  chargedAtomic: Atomic;
  creatorFeeAtomic: Atomic;
  platformFeeAtomic: Atomic;
  executionChargeAtomic: Atomic;
  settledAt: string;
}

export interface BillingRecord {
  id: string;
  runId: string;
  quoteId: string;
  reservationId: string;
  accountId: string;
  profile: Profile;
  status: 'reserved' | 'pending' | 'settled';
  settlement: Settlement | null;
  pendingReason: string | null;
  authorizedRpcCalls: number;
  reconciledRpcCalls: number;
  unresolvedRpcCalls: number;
  modelCost: { usedAtomic: Atomic; capAtomic: Atomic } | null;
  notice: string;
  /** While pending: what run end decided (the confirmed part is already charged) and the part held. */
  pendingDecision: { outcome: Settlement['outcome']; creatorFeeAtomic: Atomic; platformFeeAtomic: Atomic; confirmedExecutionAtomic: Atomic; heldAtomic: Atomic } | null;
}

/** A stored export (id = run id). */
export interface ArtifactRecord {
  id: string;
  artifactId: string;
  body: string;
  expired: boolean;
  /** Events the body covers; a later event (e.g. reconciliation) stores a fresh export. */
  eventCount: number;
}
