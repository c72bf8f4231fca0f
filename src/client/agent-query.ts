/**
 * The query of GET /v1/public/agents (spec 4.1). The allowed values are data
 * here because the console offers them as choices; the service stays the
 * judge (it answers 400 invalid_input for anything else).
 */
export const AGENT_FILTER_VALUES = {
  chain: ['ethereum', 'base', 'chainx', 'solana'],
  ownership: ['first-party', 'independent'],
  review: ['reviewed', 'any'],
  profile: ['sim', 'local_custody', 'solana_sol', 'solana_usdc'],
  available: ['true', 'false'],
  category: ['token_research', 'transaction_inspection', 'monitoring', 'custom_workflow', 'deployer_investigation', 'wallet_analysis'],
  priceStructure: ['per_run', 'per_monitoring_window'],
  permission: ['read_only', 'proposes_transactions', 'sends_notifications'],
  topic: [
    'token-intelligence', 'contract-forensics', 'wallet-intelligence', 'transaction-safety', 'monitoring', 'defi', 'liquidity',
    'lending-yield', 'staking', 'stablecoins', 'governance', 'treasuries', 'rwa', 'bridges', 'chain-activity', 'launches', 'nfts', 'security',
  ],
} as const;

export type AgentFilterName = keyof typeof AGENT_FILTER_VALUES;
export const AGENT_FILTER_NAMES = Object.keys(AGENT_FILTER_VALUES) as AgentFilterName[];
export type AgentFilters = { [K in AgentFilterName]?: (typeof AGENT_FILTER_VALUES)[K][number] };

export const AGENT_SORTS = ['newest', 'name', 'price'] as const;
export type AgentSort = (typeof AGENT_SORTS)[number];

export interface AgentQuery extends AgentFilters {
  q?: string;
  sort?: AgentSort;
  /** 1 to 50, default 20. */
  limit?: number;
  /** The nextCursor of the previous page, with the same filters and sort (spec 4.1 rule 1). */
  cursor?: string;
}
