import type { Account, ApiKeyRecord, Balance, Job, KeySecretIndex, LedgerEntry } from './records.ts';
import type { Listing, ListingVersion } from './catalog-types.ts';

/** Every collection of the store and the record type it holds. */
export interface Collections {
  [name: string]: { id: string };
  accounts: Account;
  balances: Balance;
  ledgerEntries: LedgerEntry;
  keys: ApiKeyRecord;
  keySecrets: KeySecretIndex;
  jobs: Job;
  listings: Listing;
  versions: ListingVersion;
}
