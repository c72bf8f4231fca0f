/**
 * The understudy control API's resources (contract section 2), as TypeScript
 * types: what /sim answers and takes. The /v1 resources are in ./v1-types.ts.
 */
import type { ApiKey, AtomicAmount, Billing, IsoDateTime, Profile, Run, RunEvent, Scope, Uuid } from './v1-types.ts';

export type AccountType = 'solana' | 'evm';

export interface SimClock {
  now: IsoDateTime;
  mode: 'realtime' | 'frozen';
}

export type ClockAdvance = { seconds: number } | { to: IsoDateTime } | { next: true };

export interface SimAdvanced {
  now: IsoDateTime;
  processed: Array<Record<string, unknown>>;
}

export interface SimAccount {
  id: Uuid;
  type: AccountType;
  label?: string | null;
}

export interface SimBalance {
  profile: Profile;
  assetId: string;
  depositedAtomic: AtomicAmount;
  availableAtomic: AtomicAmount;
  reservedAtomic: AtomicAmount;
  pendingAtomic: AtomicAmount;
  chargedAtomic: AtomicAmount;
}

export interface SimAccountView {
  account: SimAccount;
  balances: SimBalance[];
}

export interface SimCreateKeyBody {
  profile: Profile;
  spendLimitAtomic: AtomicAmount;
  name?: string;
  scopes?: Scope[];
  expiresInDays?: number;
  rateLimitPerMinute?: number;
  listingIds?: Uuid[] | null;
}

export interface SimCreatedKey {
  key: ApiKey;
  /** Shown only in this response. */
  secret: string;
}

export interface SimRunScript {
  outcome: 'succeeded' | 'partial' | 'failed';
  rpcCalls?: number;
  unconfirmedRpcCalls?: number;
  modelCostAtomic?: AtomicAmount;
  durationSeconds?: number;
  failure?: 'platform' | 'research';
}

/** Contract: a log names at least { address, event, args }, args as strings. */
export interface SimChainLog {
  address: string;
  event: string;
  args: Record<string, string>;
  [field: string]: unknown;
}

export interface SimBlock {
  number: string | number;
  hash: string;
}

export interface SimDestination {
  id: Uuid;
  [field: string]: unknown;
}

export interface SimFaults {
  paymentsDisabled?: Profile[];
  researchProviderUnavailable?: boolean;
  exportStorageUnavailable?: boolean;
}

/** Contract: the request log never holds bodies, headers or parameter values. */
export interface SimRequestLogEntry {
  route?: string;
  method: string;
  time?: IsoDateTime;
  status: number;
  [field: string]: unknown;
}

/** GET /sim/accounts/{id}/ledger: one posting and the balance after it. */
export interface SimLedgerEntry {
  id: string;
  accountId: Uuid;
  profile: Profile;
  at: IsoDateTime;
  /** deposit, reserve, charge, release, hold, ... */
  kind: string;
  amountAtomic: AtomicAmount;
  runId: Uuid | null;
  after: { availableAtomic: AtomicAmount; reservedAtomic: AtomicAmount; pendingAtomic: AtomicAmount; chargedAtomic: AtomicAmount };
  [field: string]: unknown;
}

/** GET /sim/runs: a run as the control API lists it (the /v1 run plus where it belongs). */
export interface SimRunSummary extends Run {
  profile?: Profile;
  accountId?: Uuid;
  plan?: Record<string, unknown>;
}

/** GET /sim/runs/{id}. */
export interface SimRunRead {
  run: SimRunSummary & { pinned?: unknown };
  events: RunEvent[];
  billing: Billing;
}

/** GET /sim/chains/{chain}. */
export interface SimChainHead {
  chain: string;
  head: string;
  headHash: string;
  cadenceMs: number;
  at: IsoDateTime;
}

/** GET /sim/deliveries. */
export interface SimDeliveryLog {
  attempts: Array<{ deliveryId: string; purpose: string; time: IsoDateTime; attempt: number; outcome: string; status: number | null; error: string | null; [field: string]: unknown }>;
  deliveries: Array<Record<string, unknown>>;
}
