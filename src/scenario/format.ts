/** The types of a scenario file (the JSON Schema in schema.ts is the contract). */
export type Profile = 'sim' | 'local_custody' | 'solana_sol' | 'solana_usdc';

export interface ScenarioKey {
  profile: Profile;
  spendLimitAtomic: string;
  scopes?: string[];
  expiresInDays?: number;
  rateLimitPerMinute?: number;
  listingIds?: string[];
}

export interface ScenarioAccount {
  type: 'solana' | 'evm';
  label?: string;
  deposits?: Partial<Record<Profile, string>>;
  keys?: Record<string, ScenarioKey>;
}

export interface ResponseExpectation {
  status?: number;
  code?: string;
  message?: string;
  body?: unknown;
  header?: Record<string, string>;
}

export interface Checks {
  balance?: { account: string; profile: Profile } & Partial<Record<'depositedAtomic' | 'availableAtomic' | 'reservedAtomic' | 'pendingAtomic' | 'chargedAtomic', string>>;
  keySpend?: { key: string; spendUsedAtomic: string };
  webhook?: { receiver: string; count?: number; type?: string; secret?: string };
}

interface StepBase {
  name?: string;
  save?: Record<string, string>;
  expect?: ResponseExpectation;
}

export type Step =
  | (StepBase & { call: { method: string; path: string; key?: string; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> } })
  | (StepBase & { control: { method: string; path: string; body?: unknown } })
  | (StepBase & { advance: { seconds?: number; to?: string; next?: true } })
  | (StepBase & { block: { chain: string; count?: number; logs?: unknown[] } })
  | (StepBase & { reorg: { chain: string; depth: number; logs?: unknown[] } })
  | { name?: string; check: Checks };

export interface Scenario {
  name: string;
  description?: string;
  assumptions?: string[];
  seed?: number | string;
  env?: 'test' | 'production';
  limits?: 'on' | 'off';
  demo?: boolean;
  startAt?: string;
  accounts?: Record<string, ScenarioAccount>;
  receivers?: Record<string, { answers?: number[]; echoChallenge?: boolean }>;
  steps: Step[];
}

export const ACTIONS = ['call', 'control', 'advance', 'block', 'reorg', 'check'] as const;
export type Action = (typeof ACTIONS)[number];
