import { transact, type Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { canonicalJson } from '../canonical-json.ts';
import { PROFILES, type ListingVersion } from './catalog-types.ts';

/** PATCH /sim/listings/{id}: what a creator does in the studio (deactivate, reactivate). */
export function setListingActive(deps: Deps, listingId: string, active: boolean | undefined) {
  const listing = deps.store.get('listings', listingId);
  if (!listing) throw errors.listingNotFound();
  if (active === undefined || active === listing.active) return listing;
  return transact(deps, (tx) => {
    const next = { ...listing, active };
    tx.put('listings', next);
    return next;
  });
}

/**
 * PUT /sim/listings/{id}/versions/{versionId}: what a creator's publish does,
 * for a version the fixtures lack (a support case brings the immutable
 * version from a customer's export). The version becomes the listing's
 * current one, so new quotes bind to it. A version is immutable: the same id
 * with other content is refused; the same content again only makes it current.
 */
export function publishListingVersion(deps: Deps, listingId: string, versionId: string, version: ListingVersion) {
  const listing = deps.store.get('listings', listingId.toLowerCase());
  if (!listing) throw errors.listingNotFound();
  if (version.id.toLowerCase() !== versionId.toLowerCase()) throw errors.invalidInput(`id: the version in the body is ${version.id}, the path names ${versionId}.`);
  if (version.listingId.toLowerCase() !== listing.id) throw errors.invalidInput(`listingId: the version belongs to listing ${version.listingId}, not ${listing.id}.`);
  for (const [i, tariff] of version.tariffs.entries()) {
    if (!PROFILES.includes(tariff.profile)) throw errors.invalidInput(`tariffs[${i}].profile: one of ${PROFILES.join(', ')}.`);
  }
  const stored = { ...version, id: version.id.toLowerCase(), listingId: listing.id };
  const existing = deps.store.get('versions', stored.id);
  if (existing && canonicalJson(existing) !== canonicalJson(stored)) throw errors.conflict(`Listing version ${stored.id} exists with other content; a published version is immutable.`);
  return transact(deps, (tx) => {
    if (!existing) tx.put('versions', stored);
    const next = { ...listing, currentVersionId: stored.id, priceRevision: stored.priceRevision, limits: stored.manifest.limits, inputFields: stored.manifest.inputFields };
    tx.put('listings', next);
    return { listing: next, version: stored };
  });
}
