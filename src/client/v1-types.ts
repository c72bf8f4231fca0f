/**
 * The resources of the Buyer Service Interface (spec part 2), as TypeScript
 * types (the control API's are in ./sim-types.ts).
 *
 * Written from the spec rather than imported from the simulator so that the
 * client stays usable against the real service. Fields the spec marks "not
 * shown" are typed loosely (`Record<string, unknown>`), and resources that
 * allow additional properties keep an index signature.
 */

/** Spec 2.1: amounts are strings of integer atomic units, never floats. */
export type AtomicAmount = string;
/** Spec 2.1: ISO 8601 in UTC. */
export type IsoDateTime = string;
export type Uuid = string;

export type Profile = 'sim' | 'local_custody' | 'solana_sol' | 'solana_usdc';
export type Scope = 'catalog:read' | 'quotes:write' | 'runs:read' | 'runs:cancel' | 'billing:read' | 'monitors:read' | 'monitors:write';
/** The route prefix under /v1 a key quotes and accepts on (spec part 4 and 4.2). */
export type Rail = 'solana-custody' | 'custody' | 'rehearsal';
export type ResultPolicy = 'complete_only' | 'canonical_metadata';

/** Spec 2.3. */
export interface ApiKey {
  id: Uuid;
  name?: string | null;
  prefix?: string;
  last4?: string;
  scopes: Scope[];
  profile: Profile;
  assetId?: string;
  listingIds?: Uuid[] | null;
  spendLimitAtomic: AtomicAmount;
  spendUsedAtomic: AtomicAmount;
  remainingSpendAtomic: AtomicAmount;
  rateLimitPerMinute?: number;
  requestsLast24h?: number;
  createdAt?: IsoDateTime;
  expiresAt: IsoDateTime;
  lastUsedAt?: IsoDateTime | null;
  revokedAt?: IsoDateTime | null;
  status: 'active' | 'expired' | 'revoked';
}

export interface Offer {
  profile: string;
  enabled: boolean;
  pricing?: ({ maximumBuyerDebitAtomic: AtomicAmount } & Record<string, unknown>) | null;
  [field: string]: unknown;
}

/** Spec 2.4: additional properties are allowed. */
export interface AgentSummary {
  listingId: Uuid;
  name: string;
  description?: string;
  chains?: string[];
  offers: Offer[];
  availability?: { available: boolean; reasons: string[] };
  [field: string]: unknown;
}

/** Spec 2.5. Item fields of inputFields and resultPolicies are not shown by the spec. */
export interface AgentDetail extends AgentSummary {
  permissions: Array<{ id: string; label: string; detail: string }>;
  limits: { maximumRpcCalls: number; maximumDurationMs: number; maximumOutputBytes: number };
  inputFields: Array<Record<string, unknown>>;
  resultPolicies: Array<Record<string, unknown>>;
  refundPolicy: string[];
  limitations: string[];
}

/** Spec 2.17: GET /v1/public/agents. */
export interface AgentPage {
  agents: AgentSummary[];
  nextCursor: string | null;
  total: number;
  sort: string;
  environment: Record<string, unknown>;
}

/** Spec 2.6: the inner fields of a listing and of pricingPolicy are not shown. */
export interface RailCatalog {
  listings: Array<Record<string, unknown>>;
  pricingPolicy?: Record<string, unknown>;
}

/** Spec 2.7. */
export interface Quote {
  id: Uuid;
  contractHash: string;
  maximumBuyerDebitAtomic: AtomicAmount;
  expiresAt: IsoDateTime;
  asset?: { namespace: string; cluster: string; kind: string; decimals: number };
  currencyLabel?: string;
  grossCreatorFeeAtomic?: AtomicAmount;
  platformFeeAtomic?: AtomicAmount;
  creatorCreditAtomic?: AtomicAmount;
  feeBps?: number;
  maxExecutionChargeAtomic?: AtomicAmount;
  unitCosts?: Record<string, unknown>;
  resultPolicy?: ResultPolicy;
  resultContract?: unknown;
  modelExecution?: Record<string, unknown> | null;
  input?: Record<string, unknown>;
  agentKind?: string;
  priceRevision?: number;
  notice?: string;
  [field: string]: unknown;
}

/** Spec 4.3. */
export interface CreateQuoteBody {
  listingId: Uuid;
  input: Record<string, unknown>;
  resultPolicy?: ResultPolicy;
  /** Solana rail only. */
  assetId?: string;
}

/** Spec 4.4. */
export interface AcceptQuoteBody {
  acceptedContractHash: string;
  idempotencyKey: string;
}

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';

/** Spec 2.8. */
export interface Run {
  id: Uuid;
  status: RunStatus;
  versionId?: Uuid;
  input?: Record<string, unknown>;
  output?: Record<string, unknown> | null;
  error?: unknown;
  mode?: string;
  attempt?: number;
  rpcUsed?: number;
  deadlineAt?: IsoDateTime;
  createdAt?: IsoDateTime;
  updatedAt?: IsoDateTime;
  [field: string]: unknown;
}

/** Spec 2.9. */
export interface RunEvent {
  id: Uuid;
  step: string;
  message: string;
  createdAt: IsoDateTime;
}

/** Spec 2.17: GET /v1/runs/{id}. */
export interface RunRead {
  run: Run;
  events: RunEvent[];
}

/** Spec 2.10. */
export interface Acceptance {
  run: Run;
  reservation: { id: Uuid; quoteId: Uuid; maximumAtomic: AtomicAmount };
  notice: string;
}

export type SettlementOutcome = 'succeeded' | 'partial' | 'failed' | 'cancelled' | 'expired';

/** Spec 2.11. */
export interface Billing {
  runId: Uuid;
  quoteId?: Uuid;
  reservationId?: Uuid;
  status: 'reserved' | 'pending' | 'settled';
  settlement?: {
    outcome: SettlementOutcome;
    chargedAtomic: AtomicAmount;
    creatorFeeAtomic: AtomicAmount;
    platformFeeAtomic: AtomicAmount;
    executionChargeAtomic: AtomicAmount;
  } | null;
  pendingReason?: string;
  authorizedRpcCalls?: number;
  reconciledRpcCalls?: number;
  unresolvedRpcCalls?: number;
  modelCost?: unknown;
  notice?: string;
  [field: string]: unknown;
}

/** Spec 2.12: only the payment currency is shown among the receipt's fields. */
export interface Receipt {
  payment: { assetId: string; currencyLabel: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** Spec 2.12: the canonical export document. */
export interface RunExport {
  run: Run;
  version: Record<string, unknown>;
  events: RunEvent[];
}

/** GET /v1/runs/{id}/export with the X-Service-Artifact-Id header beside the body. */
export interface ExportResult {
  export: RunExport;
  artifactId: string | null;
}

export type MonitorStatus = 'active' | 'paused' | 'stopped' | 'expired' | 'exhausted';

/** Spec 2.13. */
export interface Monitor {
  id: Uuid;
  status: MonitorStatus;
  name?: string;
  versionId?: Uuid;
  chain?: string;
  statusReason?: string | null;
  endsAt?: IsoDateTime;
  tickBudget?: number;
  ticksUsed?: number;
  rpcBudget?: number;
  rpcUsed?: number;
  webhook?: { url: string; signature: string } | null;
  [field: string]: unknown;
}

export interface MonitorCreated {
  monitor: Monitor;
  webhookSecret: string | null;
  replayed: boolean;
}

/** Spec 2.13: the fields of window, event and delivery records are not shown. */
export interface MonitorDetail {
  monitor: Monitor;
  windows: Array<Record<string, unknown>>;
  missedWindows?: Array<Record<string, unknown>>;
  events: Array<Record<string, unknown>>;
  retractedEvents?: Array<Record<string, unknown>>;
  deliveries: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

/** Spec 4.10 (rules and triggers: 4.11, 4.12). */
export interface CreateMonitorBody {
  name: string;
  chain: 'ethereum' | 'base' | 'chainx';
  rules: Array<{ id: string; type: string; [field: string]: unknown }>;
  durationSeconds: number;
  tickBudget: number;
  rpcBudget: number;
  idempotencyKey: string;
  versionId?: Uuid;
  listingId?: Uuid;
  triggers?: Array<{ id: string; onRule: string; action: string; lookbackBlocks?: number; maximumRuns?: number }>;
  windowBlocks?: number;
  maximumLogs?: number;
  startBlock?: string;
  webhookUrl?: string;
  paymentProfile?: 'none' | 'sim' | 'local_custody';
  spendCapAtomic?: AtomicAmount;
  consentHash?: string;
}

/** Spec 2.14. */
export interface Notification {
  id: Uuid;
  monitorId: Uuid;
  kind: string;
  title: string;
  body: string;
  createdAt: IsoDateTime;
  event?: Record<string, unknown>;
  acknowledgedAt?: IsoDateTime | null;
}

/** Spec 2.16. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/* ---- Control API (contract section 2) ---- */
