import { transact, type Deps } from '../context.ts';
import { errors } from '../errors.ts';

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
