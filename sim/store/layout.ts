import type { Collections } from '../domain/collections.ts';
import type { StoreLayout } from './store-types.ts';

/**
 * Which collections live in the store's archive: those whose rows pile up with
 * every run or every chain event and are then only looked up by id (a run, its
 * quote, events, billing, ledger lines; a chain log, a monitor's windows,
 * events and deliveries, a notification; a chain script's entries, loaded by
 * the thousand and each read once, when due). Rows read per owner are grouped by
 * the field that names it, so the newest of a group are found without reading
 * the rest: ledger lines and runs by accountId, monitor events and deliveries
 * by monitorId, notifications by accountId. Storage policy, so the store's:
 * the domain only names its collections (Collections, a type).
 */
export const STORE_LAYOUT = {
  archived: ['quotes', 'acceptances', 'reservations', 'runs', 'runEvents', 'billings', 'artifacts', 'ledgerEntries', 'chainLogs', 'monitorWindows', 'monitorEvents', 'deliveries', 'notifications', 'chainScriptEntries'],
  grouped: { ledgerEntries: 'accountId', runs: 'accountId', monitorEvents: 'monitorId', deliveries: 'monitorId', notifications: 'accountId' },
} as const satisfies StoreLayout & { archived: ReadonlyArray<keyof Collections & string>; grouped: Partial<Record<keyof Collections & string, string>> };
