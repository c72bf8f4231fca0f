import type { Profile } from '../catalog/catalog-types.ts';
import type { Atomic } from '../money.ts';

/** Records of API keys and the environment they belong to. Stored, one interface per collection. */

/** Where a key, a webhook URL or a whole simulator belongs: test or production. */
export type Environment = 'test' | 'production';

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
