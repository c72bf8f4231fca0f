import { Type } from 'typebox';
import { PROFILES } from '../../domain/catalog-types.ts';
import { SCOPES } from '../../domain/records.ts';
import { Amount, DateTime, Uuid } from './common.ts';

/** The API key object of spec 2.3. */
export const Scope = Type.String({ enum: [...SCOPES] });
export const ProfileSchema = Type.String({ enum: [...PROFILES] });

export const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
    prefix: Type.String(),
    last4: Type.String(),
    scopes: Type.Array(Scope),
    profile: ProfileSchema,
    assetId: Type.String(),
    listingIds: Type.Union([Type.Array(Uuid, { maxItems: 50 }), Type.Null()]),
    spendLimitAtomic: Amount,
    spendUsedAtomic: Amount,
    remainingSpendAtomic: Amount,
    rateLimitPerMinute: Type.Integer(),
    requestsLast24h: Type.Integer(),
    createdAt: DateTime,
    expiresAt: DateTime,
    lastUsedAt: Type.Union([DateTime, Type.Null()]),
    revokedAt: Type.Union([DateTime, Type.Null()]),
    status: Type.String({ enum: ['active', 'expired', 'revoked'] }),
  },
  { $id: 'ApiKey' },
);
