import { Type } from './json-schema.ts';
import { PROFILES } from '../../domain/catalog/index.ts';
import { SCOPES } from '../../domain/keys/index.ts';
import { Amount, DateTime, Nullable, Uuid } from './common.ts';

/** The API key object of spec 2.3. */
export const Scope = Type.String({ enum: [...SCOPES] });
export const ProfileSchema = Type.String({ enum: [...PROFILES] });

export const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Nullable(Type.String({ maxLength: 100 })),
    prefix: Type.String(),
    last4: Type.String(),
    scopes: Type.Array(Scope),
    profile: ProfileSchema,
    assetId: Type.String(),
    listingIds: Nullable(Type.Array(Uuid, { maxItems: 50 })),
    spendLimitAtomic: Amount,
    spendUsedAtomic: Amount,
    remainingSpendAtomic: Amount,
    rateLimitPerMinute: Type.Integer(),
    requestsLast24h: Type.Integer(),
    createdAt: DateTime,
    expiresAt: DateTime,
    lastUsedAt: Nullable(DateTime),
    revokedAt: Nullable(DateTime),
    status: Type.String({ enum: ['active', 'expired', 'revoked'] }),
  },
  { $id: 'ApiKey' },
);
