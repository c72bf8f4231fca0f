import type { ChainDeps } from './chain-deps.ts';
import { errors } from '../errors.ts';
import { assertMonitorKey, createMonitor, listMonitors, monitorDetail, monitorView, ownMonitor, stopMonitor, type CreateMonitorBody, type Creator } from './monitors.ts';
import { acknowledge, notificationsOf } from './notifications.ts';
import { LIMITS } from '../limits/index.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { LimitsService } from '../limits/index.ts';

/** Monitors and notifications (spec 4.10-4.13): an API key's (ETH keys only) and an account owner's (control API). */
export function createMonitors(deps: ChainDeps, limits: LimitsService) {
  return {
    list(key: ApiKeyRecord) {
      assertMonitorKey(key);
      return listMonitors(deps, key.accountId);
    },
    /** Monitor creation: 10 per minute per owner (spec 8), unless limits are off; a replay answers 200. */
    create(creator: Creator, body: CreateMonitorBody) {
      if (creator.kind === 'key') assertMonitorKey(creator.key);
      const owner = creator.kind === 'key' ? creator.key.accountId : creator.accountId;
      const wait = limits.refusal(`monitors:${owner}`, LIMITS.monitorCreationsPerMinute, deps.clock.now());
      if (wait !== null) throw errors.tooManyRequests(wait);
      const created = createMonitor(deps, creator, body);
      return { monitor: monitorView(created.monitor), webhookSecret: created.webhookSecret, replayed: created.replayed };
    },
    detail: (key: ApiKeyRecord, monitorId: string) => monitorDetail(deps, ownMonitor(deps, key, monitorId)),
    /** Any account's monitor, for the control API. */
    ownerDetail(monitorId: string) {
      const m = deps.store.get('monitors', monitorId);
      if (!m) throw errors.notFound('This monitor was not found.');
      return monitorDetail(deps, m);
    },
    stop: (key: ApiKeyRecord, monitorId: string) => monitorView(stopMonitor(deps, ownMonitor(deps, key, monitorId))),
    notifications(key: ApiKeyRecord) {
      assertMonitorKey(key);
      return notificationsOf(deps, key.accountId);
    },
    acknowledge(key: ApiKeyRecord, notificationId: string) {
      assertMonitorKey(key);
      return acknowledge(deps, key, notificationId);
    },
  };
}

export type MonitorsService = ReturnType<typeof createMonitors>;
