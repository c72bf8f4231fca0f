import { createHmac, timingSafeEqual } from 'node:crypto';
import { ASSETS, assetByAssetId, type Rail } from './assets.ts';
import type { Listing, ListingVersion, Profile } from './catalog-types.ts';
import type { Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { priceOf, referencePrice, tariffFor, FEE_BPS } from './pricing.ts';
import type { ApiKeyRecord, Environment } from '../keys/records.ts';

/** The public catalog (spec 2.4, 2.5, 4.1) and the rail catalogs (2.6, 4.2). */

export interface CatalogQuery {
  q?: string;
  chain?: string;
  ownership?: string;
  review?: 'reviewed' | 'any';
  profile?: Profile;
  available?: 'true' | 'false';
  category?: string;
  priceStructure?: string;
  permission?: string;
  topic?: string;
  sort?: 'newest' | 'name' | 'price';
  limit?: number;
  cursor?: string;
}

const FILTER_KEYS = ['q', 'chain', 'ownership', 'review', 'profile', 'available', 'category', 'priceStructure', 'permission', 'topic'] as const;

/** Listings the public sees: not creator test drafts, not deactivated. */
export function publicListings(deps: Deps): Listing[] {
  return deps.store.all('listings').filter((l) => !l.isCreatorTest && l.active);
}

export function versionOf(deps: Deps, listing: Listing): ListingVersion {
  const version = deps.store.get('versions', listing.currentVersionId);
  if (!version) throw new Error(`listing ${listing.id} has no version ${listing.currentVersionId}`);
  return version;
}

export function findPublicListing(deps: Deps, listingId: string): Listing {
  // UUIDs are case-insensitive; the store keys them in lowercase.
  const listing = deps.store.get('listings', listingId.toLowerCase());
  if (!listing || listing.isCreatorTest || !listing.active) throw errors.listingNotFound();
  return listing;
}

function matches(listing: Listing, query: CatalogQuery): boolean {
  if (query.q) {
    const needle = query.q.toLowerCase();
    const haystack = [listing.name, listing.description, listing.category, ...listing.topics].join(' ').toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  if (query.chain && !listing.chains.includes(query.chain as never)) return false;
  if (query.ownership && listing.ownership !== query.ownership) return false;
  if (query.review === 'reviewed' && listing.review !== 'reviewed') return false;
  if (query.profile && !listing.profiles.includes(query.profile)) return false;
  if (query.available && String(listing.availability.available) !== query.available) return false;
  if (query.category && listing.category !== query.category) return false;
  if (query.priceStructure && listing.priceStructure !== query.priceStructure) return false;
  if (query.permission && !listing.permissions.some((p) => p.id === query.permission)) return false;
  if (query.topic && !listing.topics.includes(query.topic as never)) return false;
  return true;
}

function sorted(deps: Deps, listings: Listing[], sort: 'newest' | 'name' | 'price', profile?: Profile): Listing[] {
  const byId = (a: Listing, b: Listing) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  if (sort === 'name') return [...listings].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b)));
  if (sort === 'newest') return [...listings].sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : byId(a, b)));
  const keyed = listings.map((l) => ({ l, p: referencePrice(l, versionOf(deps, l), profile ? [profile] : l.profiles) }));
  keyed.sort((a, b) => (a.p < b.p ? -1 : a.p > b.p ? 1 : byId(a.l, b.l)));
  return keyed.map((k) => k.l);
}

/**
 * Cursors are opaque: an offset bound to the sort and the filters, signed with
 * a secret derived from the store's sealing key, so a malformed, altered or foreign
 * cursor (other sort, other filters, other simulator) is refused with 400.
 */
export function cursorSecret(deps: Deps): string {
  return deps.sealing.derive('catalog-cursor');
}

function filterFingerprint(sort: string, query: CatalogQuery): string {
  // A filter stated at its default equals the filter left out: review=any, an empty q.
  const normalized: CatalogQuery = { ...query, review: query.review === 'any' ? undefined : query.review, q: query.q || undefined };
  return JSON.stringify([sort, ...FILTER_KEYS.map((k) => normalized[k] ?? null)]);
}

function sign(deps: Deps, payload: string): string {
  return createHmac('sha256', cursorSecret(deps)).update(payload).digest('base64url').slice(0, 22);
}

function encodeCursor(deps: Deps, sort: string, query: CatalogQuery, offset: number): string {
  const fingerprint = createHmac('sha256', cursorSecret(deps)).update(filterFingerprint(sort, query)).digest('base64url').slice(0, 16);
  const payload = Buffer.from(JSON.stringify({ v: 1, s: sort, f: fingerprint, o: offset })).toString('base64url');
  return `${payload}.${sign(deps, payload)}`;
}

function decodeCursor(deps: Deps, cursor: string, sort: string, query: CatalogQuery): number {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw errors.invalidCursor();
  const expected = Buffer.from(sign(deps, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw errors.invalidCursor();
  let decoded: { v?: number; s?: string; f?: string; o?: number };
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw errors.invalidCursor();
  }
  const fingerprint = createHmac('sha256', cursorSecret(deps)).update(filterFingerprint(sort, query)).digest('base64url').slice(0, 16);
  if (decoded.v !== 1 || decoded.s !== sort || decoded.f !== fingerprint || !Number.isInteger(decoded.o) || (decoded.o as number) < 0) {
    throw errors.invalidCursor();
  }
  return decoded.o as number;
}

export function offersOf(deps: Deps, listing: Listing) {
  const version = versionOf(deps, listing);
  return listing.profiles.map((profile) => {
    const tariff = tariffFor(version, profile);
    const price = tariff ? priceOf(version, tariff) : null;
    return {
      profile,
      enabled: !listing.disabledProfiles.includes(profile) && !(profile === 'sim' && deps.env === 'production'),
      assetId: ASSETS[profile].assetId,
      currencyLabel: ASSETS[profile].currencyLabel,
      pricing: price
        ? {
            maximumBuyerDebitAtomic: price.maximumBuyerDebitAtomic,
            grossCreatorFeeAtomic: price.grossCreatorFeeAtomic,
            maxExecutionChargeAtomic: price.maxExecutionChargeAtomic,
            priceStructure: listing.priceStructure,
          }
        : null,
    };
  });
}

export type AgentSummary = ReturnType<typeof agentSummary>;

/** A listing's summary, as search pages and the detail show it. */
export function agentSummary(deps: Deps, listing: Listing) {
  return {
    listingId: listing.id,
    name: listing.name,
    description: listing.description,
    chains: listing.chains,
    offers: offersOf(deps, listing),
    availability: listing.availability,
    category: listing.category,
    topics: listing.topics,
    ownership: listing.ownership,
    review: listing.review,
    priceStructure: listing.priceStructure,
    agentKind: listing.agentKind,
    versionId: listing.currentVersionId,
    priceRevision: listing.priceRevision,
    createdAt: listing.createdAt,
  };
}

export function agentDetail(deps: Deps, listing: Listing) {
  const version = versionOf(deps, listing);
  return {
    ...agentSummary(deps, listing),
    permissions: listing.permissions,
    limits: listing.limits,
    inputFields: listing.inputFields,
    resultPolicies: listing.resultPolicies.map((policy) => ({
      policy,
      isDefault: policy === 'complete_only',
      resultContract: version.resultContracts.find((c) => c.policy === policy)?.contract ?? null,
    })),
    refundPolicy: listing.refundPolicy,
    limitations: listing.limitations,
  };
}

export function searchAgents(deps: Deps, query: CatalogQuery) {
  const sort = query.sort ?? 'newest';
  const limit = query.limit ?? 20;
  const offset = query.cursor ? decodeCursor(deps, query.cursor, sort, query) : 0;
  const all = sorted(deps, publicListings(deps).filter((l) => matches(l, query)), sort, query.profile);
  const page = all.slice(offset, offset + limit);
  const nextOffset = offset + page.length;
  return {
    agents: page.map((l) => agentSummary(deps, l)),
    nextCursor: nextOffset < all.length ? encodeCursor(deps, sort, query, nextOffset) : null,
    total: all.length,
    sort,
    environment: { name: deps.env, apiVersion: '1.2.0-local', keyPrefix: deps.env === 'test' ? 'svc_test_' : 'svc_live_' },
  };
}

/** Spec 5, one key one asset: the rail a key may use. */
export function assertRail(key: ApiKeyRecord, rail: Rail): void {
  if (ASSETS[key.profile].rail !== rail) throw errors.otherEnvironment();
}

/** Spec 4.2/4.3: a Solana key names only its own asset. */
export function assertOwnAsset(key: ApiKeyRecord, assetId: string | undefined): void {
  if (assetId === undefined) return;
  const asset = assetByAssetId(assetId);
  if (!asset || asset.profile !== key.profile) throw errors.otherEnvironment();
}

/** The rail catalog of a key: the listings accepting its asset, with their immutable versions. */
export function railCatalog(deps: Deps, key: ApiKeyRecord) {
  const profile = key.profile;
  const listings = publicListings(deps)
    .filter((l) => l.profiles.includes(profile) && (!key.listingIds || key.listingIds.includes(l.id)))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .slice(0, 100)
    .map((listing) => {
      const version = versionOf(deps, listing);
      const tariff = tariffFor(version, profile)!;
      return {
        listingId: listing.id,
        versionId: version.id,
        name: listing.name,
        priceRevision: version.priceRevision,
        enabled: !listing.disabledProfiles.includes(profile),
        manifest: version.manifest,
        tariffs: tariff,
        asset: { assetId: ASSETS[profile].assetId, ...ASSETS[profile].asset, currencyLabel: ASSETS[profile].currencyLabel },
        resultContracts: version.resultContracts,
        pricing: priceOf(version, tariff),
      };
    });
  return {
    listings,
    pricingPolicy: {
      feeBps: FEE_BPS,
      quoteLifetimeSeconds: 240,
      rounding: 'Every division rounds down; the creator receives the remainder of the fee split.',
      profile,
      assetId: ASSETS[profile].assetId,
    },
  };
}
