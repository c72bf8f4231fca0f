import type { AcceptanceRecord, Account, Balance, LedgerEntry, QuoteRecord, ReservationRecord } from './quotes/records.ts';
import type { ApiKeyRecord, KeySecretIndex } from './keys/records.ts';
import type { BillingRecord, RunEventRecord, RunRecord, ArtifactRecord } from './runs/records.ts';
import type { Job } from './jobs/records.ts';
import type { ChainLog, MonitorRecord, MonitorWindow, MonitorEventRecord, NotificationRecord, ChainScriptEntry } from './chains/records.ts';
import type { DestinationRecord, SubscriptionRecord, DeliveryRecord } from './deliveries/records.ts';
import type { Listing, ListingVersion } from './catalog/catalog-types.ts';
import type { StoreLayout } from '../store/file-store.ts';

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

/**
 * Which collections live in the store's archive: those whose rows pile up with
 * every run or every chain event and are then only looked up by id (a run, its
 * quote, events, billing, ledger lines; a chain log, a monitor's windows,
 * events and deliveries, a notification). Rows read per owner are grouped by
 * the field that names it, so the newest of a group are found without reading
 * the rest: ledger lines and runs by accountId, monitor events and deliveries
 * by monitorId, notifications by accountId.
 */
export const STORE_LAYOUT: StoreLayout = {
  archived: ['quotes', 'acceptances', 'reservations', 'runs', 'runEvents', 'billings', 'artifacts', 'ledgerEntries', 'chainLogs', 'monitorWindows', 'monitorEvents', 'deliveries', 'notifications'],
  grouped: { ledgerEntries: 'accountId', runs: 'accountId', monitorEvents: 'monitorId', deliveries: 'monitorId', notifications: 'accountId' },
};
