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
  /** What the acceptance answered, kept so that a replay answers it again. Absent from rows stored before it was kept. */
  answer?: AcceptanceAnswer;
}

export interface ReservationRecord {
  id: string;
  quoteId: string;
  runId: string;
  accountId: string;
  profile: Profile;
  maximumAtomic: Atomic;
}

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

/** A log on a simulated chain (id `${chain}:${block (20 digits)}:${logIndex (6 digits)}`). */
export interface ChainLog {
  id: string;
  chain: string;
  blockNumber: string;
  logIndex: number;
  transactionHash: string;
  address: string;
  event: string;
  args: Record<string, string>;
  /** The reorg generation of its block when it was mined; a reorg removes it. */
  generation: number;
  removed: boolean;
}

export type MonitorStatus = 'active' | 'paused' | 'stopped' | 'expired' | 'exhausted';

export interface MonitorRule {
  id: string;
  type: 'erc20-transfer' | 'erc20-approval' | 'authority-change' | 'wallet-token-flow' | 'pool-activity' | 'governance-change' | 'control-change';
  [field: string]: unknown;
}

export interface MonitorTrigger {
  id: string;
  onRule: string;
  action: 'token-authority-check' | 'sender-approvals-check';
  lookbackBlocks: number;
  maximumRuns: number;
}

export interface MonitorRecord {
  id: string;
  accountId: string;
  keyId: string | null;
  name: string;
  chain: string;
  versionId: string | null;
  listingId: string | null;
  rules: MonitorRule[];
  triggers: MonitorTrigger[];
  windowBlocks: number;
  maximumLogs: number;
  durationSeconds: number;
  tickBudget: number;
  ticksUsed: number;
  rpcBudget: number;
  rpcUsed: number;
  startBlock: string;
  /** The first block not yet scanned. */
  cursorBlock: string;
  status: MonitorStatus;
  statusReason: string | null;
  endsAt: string;
  createdAt: string;
  updatedAt: string;
  webhookUrl: string | null;
  paymentProfile: 'none' | 'sim' | 'local_custody';
  spendCapAtomic: string | null;
  consentHash: string | null;
  idempotencyKey: string;
  bodyHash: string;
  windowCount: number;
  eventCount: number;
  missedCount: number;
  triggerRuns: Record<string, number>;
}

/** One scanned window, or a run of consecutive empty ones (id `${monitorId}:${seq}`). */
export interface MonitorWindow {
  id: string;
  monitorId: string;
  seq: number;
  fromBlock: string;
  toBlock: string;
  windows: number;
  logsMatched: number;
  logsDropped: number;
  rpcUsed: number;
  scannedAt: string;
}

export interface MonitorEventRecord {
  id: string;
  monitorId: string;
  accountId: string;
  seq: number;
  ruleId: string;
  kind: 'match' | 'trigger';
  chain: string;
  logId: string | null;
  blockNumber: string;
  blockHash: string;
  transactionHash: string | null;
  logIndex: number | null;
  event: Record<string, unknown>;
  explanation: string;
  fields: Record<string, string>;
  status: 'active' | 'retracted';
  observedAt: string;
  retractedAt: string | null;
}

export interface NotificationRecord {
  id: string;
  accountId: string;
  monitorId: string;
  seq: number;
  kind: 'monitor.event' | 'monitor.event.retracted' | 'monitor.delivery.failed' | 'monitor.status';
  title: string;
  body: string;
  event: Record<string, unknown> | null;
  createdAt: string;
  acknowledgedAt: string | null;
}

export type DestinationState = 'needs_verification' | 'verified' | 'failing' | 'revoked';

export interface DestinationRecord {
  id: string;
  accountId: string;
  url: string;
  kind: 'https' | 'chat';
  state: DestinationState;
  verificationAttempts: number;
  lastError: string | null;
  consecutiveFailures: number;
  createdAt: string;
  verifiedAt: string | null;
  revokedAt: string | null;
  /** Chat destinations: the pending 8-digit code and when it stops being valid. */
  chatCode: { code: string; expiresAt: string } | null;
}

export interface SubscriptionRecord {
  id: string;
  monitorId: string;
  destinationId: string;
  createdAt: string;
}

export interface DeliveryAttempt {
  at: string;
  attempt: number;
  outcome: 'delivered' | 'failed' | 'refused';
  httpStatus: number | null;
  error: string | null;
}

export interface DeliveryRecord {
  id: string;
  accountId: string;
  purpose: 'verification' | 'delivery';
  monitorId: string | null;
  destinationId: string | null;
  /** Set for a monitor's own webhookUrl (test environment). */
  webhookUrl: string | null;
  monitorEventId: string | null;
  type: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: DeliveryAttempt[];
  createdAt: string;
  nextAttemptAt: string | null;
}

/** One scheduled step of a loaded chain script (fixtures/chains/NAME.json). */
export interface ChainScriptEntry {
  id: string;
  script: string;
  chain: string;
  logs: Array<{ address: string; event: string; args: Record<string, string>; transactionHash?: string }>;
  count: number;
  reorgDepth: number | null;
}
