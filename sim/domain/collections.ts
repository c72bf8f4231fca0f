import type { AcceptanceRecord, Account, ApiKeyRecord, Balance, BillingRecord, Job, KeySecretIndex, LedgerEntry, QuoteRecord, ReservationRecord, RunEventRecord, RunRecord, ArtifactRecord, ChainLog, MonitorRecord, MonitorWindow, MonitorEventRecord, NotificationRecord, DestinationRecord, SubscriptionRecord, DeliveryRecord, ChainScriptEntry } from './records.ts';
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
