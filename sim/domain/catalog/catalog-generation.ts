import type { Listing, ListingVersion } from './catalog-types.ts';
import { cursorSecret } from './catalog.ts';
import type { Deps } from '../context.ts';

/**
 * An object that stays the same while nothing the public catalog shows can have
 * changed: the same listing rows and the same version rows (compared by identity,
 * in store order, so a row replaced, added or removed makes a new generation), and
 * the same cursor secret (cursors are signed with it). A cache of catalog answers is
 * valid while this is the object it was filled under.
 */
export interface CatalogGeneration {
  cursorSecret: string;
  listings: Listing[];
  versions: ListingVersion[];
}

const sameRows = <T>(a: readonly T[], b: readonly T[]) => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
};

/** The current generation: `last` itself while nothing has changed since it was made, else a new one. */
export function catalogGeneration(deps: Deps, last: CatalogGeneration | null): CatalogGeneration {
  const listings = deps.store.all('listings');
  const versions = deps.store.all('versions');
  const secret = cursorSecret(deps);
  if (last && last.cursorSecret === secret && sameRows(listings, last.listings) && sameRows(versions, last.versions)) return last;
  return { cursorSecret: secret, listings, versions };
}
