import type { Rail } from './assets.ts';
import { agentDetail, assertOwnAsset, assertRail, findPublicListing, railCatalog, searchAgents, type CatalogQuery } from './catalog.ts';
import type { Deps } from '../context.ts';
import { publishListingVersion, setListingActive } from './listings-admin.ts';
import type { ListingVersion } from './catalog-types.ts';
import type { ApiKeyRecord } from '../keys/records.ts';

/** The catalog (spec 4.1-4.2): public search, one agent, a key's rail catalog, and the control switch of a listing. */
export function createCatalog(deps: Deps) {
  return {
    search: (query: CatalogQuery) => searchAgents(deps, query),
    agent: (listingId: string) => agentDetail(deps, findPublicListing(deps, listingId)),
    forKey(key: ApiKeyRecord, rail: Rail, assetId: string | undefined) {
      assertRail(key, rail);
      assertOwnAsset(key, assetId);
      return railCatalog(deps, key);
    },
    setListingActive: (listingId: string, active: boolean | undefined) => setListingActive(deps, listingId, active),
    publishListingVersion: (listingId: string, versionId: string, version: ListingVersion) => publishListingVersion(deps, listingId, versionId, version),
  };
}

export type CatalogService = ReturnType<typeof createCatalog>;
