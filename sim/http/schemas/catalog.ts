import { Type } from './json-schema.ts';
import { CATEGORIES, CHAINS, OWNERSHIPS, PERMISSIONS, PRICE_STRUCTURES, PROFILES, TOPICS } from '../../domain/catalog/index.ts';
import { Amount, DateTime, Nullable, Uuid } from './common.ts';

const oneOf = (values: readonly string[]) => Type.String({ enum: [...values] });

/** Spec 4.1: every parameter strict. */
export const AgentQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 100 })),
    chain: Type.Optional(oneOf(CHAINS)),
    ownership: Type.Optional(oneOf(OWNERSHIPS)),
    review: Type.Optional(oneOf(['reviewed', 'any'])),
    profile: Type.Optional(oneOf(PROFILES)),
    available: Type.Optional(oneOf(['true', 'false'])),
    category: Type.Optional(oneOf(CATEGORIES)),
    priceStructure: Type.Optional(oneOf(PRICE_STRUCTURES)),
    permission: Type.Optional(oneOf(PERMISSIONS)),
    topic: Type.Optional(oneOf(TOPICS)),
    sort: Type.Optional(oneOf(['newest', 'name', 'price'])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 600 })),
  },
  { additionalProperties: false },
);

const Offer = Type.Object(
  {
    profile: Type.String(),
    enabled: Type.Boolean(),
    pricing: Nullable(Type.Object({ maximumBuyerDebitAtomic: Amount }, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

export const AgentSummary = Type.Object(
  {
    listingId: Uuid,
    name: Type.String(),
    description: Type.Optional(Type.String()),
    chains: Type.Optional(Type.Array(Type.String())),
    offers: Type.Array(Offer),
    availability: Type.Optional(Type.Object({ available: Type.Boolean(), reasons: Type.Array(Type.String()) })),
    createdAt: Type.Optional(DateTime),
  },
  { additionalProperties: true, $id: 'AgentSummary' },
);

export const AgentDetail = Type.Object(
  {
    listingId: Uuid,
    name: Type.String(),
    offers: Type.Array(Offer),
    permissions: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), detail: Type.String() })),
    limits: Type.Object({ maximumRpcCalls: Type.Integer(), maximumDurationMs: Type.Integer(), maximumOutputBytes: Type.Integer() }),
    inputFields: Type.Array(Type.Object({}, { additionalProperties: true })),
    resultPolicies: Type.Array(Type.Object({}, { additionalProperties: true })),
    refundPolicy: Type.Array(Type.String()),
    limitations: Type.Array(Type.String()),
  },
  { additionalProperties: true, $id: 'AgentDetail' },
);

export const AgentPage = Type.Object({
  agents: Type.Array(Type.Ref('AgentSummary'), { maxItems: 50 }),
  nextCursor: Nullable(Type.String({ maxLength: 200 })),
  total: Type.Integer(),
  sort: Type.String(),
  environment: Type.Object({}, { additionalProperties: true }),
});

export const RailCatalog = Type.Object({
  listings: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 100 }),
  pricingPolicy: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const SolanaCatalogQuery = Type.Object({ assetId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });
export const ListingParams = Type.Object({ listingId: Uuid }, { additionalProperties: false });
