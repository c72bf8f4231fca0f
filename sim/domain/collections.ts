import type { AcceptanceRecord, QuoteRecord, ReservationRecord } from './quotes/records.ts';
import type { Account, Balance, LedgerEntry } from './ledger/records.ts';
import type { ApiKeyRecord, KeySecretIndex } from './keys/records.ts';
import type { BillingRecord, RunEventRecord, RunRecord, ArtifactRecord } from './runs/records.ts';
import type { Job } from './jobs/records.ts';
import type { ChainLog, MonitorRecord, MonitorWindow, MonitorEventRecord, NotificationRecord, ChainScriptEntry } from './chains/records.ts';
import type { DestinationRecord, SubscriptionRecord, DeliveryRecord } from './deliveries/records.ts';
import type { Listing, ListingVersion } from './catalog/catalog-types.ts';

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
  quotes: QuoteRecord;
  acceptances: AcceptanceRecord;
  reservations: ReservationRecord;
  runs: RunRecord;
  runEvents: RunEventRecord;
  billings: BillingRecord;
  artifacts: ArtifactRecord;
  chainLogs: ChainLog;
  monitors: MonitorRecord;
  monitorWindows: MonitorWindow;
  monitorEvents: MonitorEventRecord;
  notifications: NotificationRecord;
  destinations: DestinationRecord;
  subscriptions: SubscriptionRecord;
  deliveries: DeliveryRecord;
  chainScriptEntries: ChainScriptEntry;
}
