/** Catalog vocabulary of spec 4.1, and the listing records the fixtures produce. */

export const CHAINS = ['ethereum', 'base', 'chainx', 'solana'] as const;
export const EVM_CHAINS = ['ethereum', 'base', 'chainx'] as const;
export const OWNERSHIPS = ['first-party', 'independent'] as const;
export const REVIEW_STATES = ['reviewed', 'unreviewed'] as const;
export const PROFILES = ['sim', 'local_custody', 'solana_sol', 'solana_usdc'] as const;
export const CATEGORIES = ['token_research', 'transaction_inspection', 'monitoring', 'custom_workflow', 'deployer_investigation', 'wallet_analysis'] as const;
export const PRICE_STRUCTURES = ['per_run', 'per_monitoring_window'] as const;
export const PERMISSIONS = ['read_only', 'proposes_transactions', 'sends_notifications'] as const;
export const TOPICS = [
  'token-intelligence', 'contract-forensics', 'wallet-intelligence', 'transaction-safety', 'monitoring', 'defi', 'liquidity',
  'lending-yield', 'staking', 'stablecoins', 'governance', 'treasuries', 'rwa', 'bridges', 'chain-activity', 'launches', 'nfts', 'security',
] as const;
export const RESULT_POLICIES = ['complete_only', 'canonical_metadata'] as const;

export type Chain = (typeof CHAINS)[number];
export type Ownership = (typeof OWNERSHIPS)[number];
export type ReviewState = (typeof REVIEW_STATES)[number];
export type Profile = (typeof PROFILES)[number];
export type Category = (typeof CATEGORIES)[number];
export type PriceStructure = (typeof PRICE_STRUCTURES)[number];
export type Permission = (typeof PERMISSIONS)[number];
export type Topic = (typeof TOPICS)[number];
export type ResultPolicy = (typeof RESULT_POLICIES)[number];

/**
 * How an agent's input is shaped (spec 4.3):
 * - token_research: { chain, address, scope?, snapshotBlock? }
 * - research_workflow: { workflow: 'service.workflow.v1', chain, values: { <inputField name>: string } }
 * - solana_transaction_inspection: { analysisChain, network, encoding, payloadBase64 }
 * - named_fields: { <inputField name>: string } (every other agent)
 */
export type AgentKind = 'token_research' | 'research_workflow' | 'solana_transaction_inspection' | 'named_fields';

export interface InputField {
  name: string;
  label: string;
  type: 'string';
  required: boolean;
  description: string;
  /** When present, the value must be one of these. */
  enum?: string[];
  /** When present, the value must match this regular expression. */
  pattern?: string;
  maxLength: number;
}

export interface ListingLimits {
  maximumRpcCalls: number;
  maximumDurationMs: number;
  maximumOutputBytes: number;
}

/** Per payment profile: what one run costs, in that profile's atomic units (integer strings). */
export interface Tariff {
  profile: Profile;
  /** The creator fee charged for a complete report (per run, or per monitoring window). */
  creatorFeeAtomic: string;
  /** The execution charge for one blockchain read. */
  rpcCallAtomic: string;
  /** Cap and per-call rate of AI-assisted analysis, or null when the agent has none. */
  model: { costCapAtomic: string; rateAtomic: string } | null;
}

/** What a run of this listing does when nothing (control call or magic input) says otherwise. */
export interface DefaultBehaviour {
  outcome: 'succeeded' | 'partial' | 'failed';
  /** Blockchain reads the run makes (≤ limits.maximumRpcCalls). */
  rpcCalls: number;
  /** Simulated seconds from start to end (≤ limits.maximumDurationMs / 1000). */
  durationSeconds: number;
  /** Model cost used when the agent has AI analysis ('0' otherwise). */
  modelCostAtomicFraction: { numerator: number; denominator: number };
}

export interface ListingVersion {
  id: string;
  listingId: string;
  priceRevision: number;
  createdAt: string;
  manifest: {
    name: string;
    agentKind: AgentKind;
    category: Category;
    chains: Chain[];
    inputFields: InputField[];
    limits: ListingLimits;
    permissions: Permission[];
  };
  tariffs: Tariff[];
  resultContracts: Array<{ policy: ResultPolicy; contract: string }>;
}

export interface Listing {
  id: string;
  name: string;
  description: string;
  agentKind: AgentKind;
  category: Category;
  chains: Chain[];
  topics: Topic[];
  ownership: Ownership;
  review: ReviewState;
  priceStructure: PriceStructure;
  permissions: Array<{ id: Permission; label: string; detail: string }>;
  /** Payment profiles this listing accepts; offers are derived from these and the tariffs. */
  profiles: Profile[];
  /** Profiles listed among offers but currently not enabled (offer.enabled false). */
  disabledProfiles: Profile[];
  availability: { available: boolean; reasons: string[] };
  active: boolean;
  limits: ListingLimits;
  inputFields: InputField[];
  resultPolicies: ResultPolicy[];
  refundPolicy: string[];
  limitations: string[];
  createdAt: string;
  currentVersionId: string;
  priceRevision: number;
  behaviour: DefaultBehaviour;
  /** A creator's test listing: runs of it are creator test runs, invisible to buyer keys. */
  isCreatorTest?: boolean;
}

export interface ListingFixture {
  listing: Listing;
  version: ListingVersion;
}
