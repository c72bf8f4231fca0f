/**
 * The catalog (spec 4.1-4.2): listings, versions, prices, the rails and assets
 * they sell on. The folder's public face: only what code outside it imports
 * (the domain's other files take the stored shapes and vocabulary types,
 * catalog-types.ts, as types).
 */
export { ASSETS, type Rail } from './assets.ts';
// EVM_CHAINS and REVIEW_STATES: the fixtures test checks every listing against the vocabulary.
export {
  CATEGORIES,
  CHAINS,
  EVM_CHAINS,
  OWNERSHIPS,
  PERMISSIONS,
  PRICE_STRUCTURES,
  PROFILES,
  REVIEW_STATES,
  TOPICS,
  type Listing,
  type ListingVersion,
  type Profile,
  type Tariff,
} from './catalog-types.ts';
// The listing fixtures (fixtures/listings) build the records from these.
export type {
  AgentKind,
  Category,
  Chain,
  DefaultBehaviour,
  InputField,
  ListingFixture,
  ListingLimits,
  Ownership,
  Permission,
  PriceStructure,
  ResultPolicy,
  ReviewState,
  Topic,
} from './catalog-types.ts';
export { assertOwnAsset, assertRail, findPublicListing, versionOf, type CatalogQuery } from './catalog.ts';
// referencePrice: the agents test checks each offer's reference price against it.
export { platformShare, priceOf, referencePrice, tariffFor, type Price } from './pricing.ts';
export { createCatalog, type CatalogService } from './service.ts';
