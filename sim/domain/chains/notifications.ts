import { iso, transact, type Deps, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import { newestRows } from '../newest-rows.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { NotificationRecord } from './records.ts';

/**
 * In-app notifications (spec 2.14, 3.7). Kinds: monitor.event (a rule matched),
 * monitor.event.retracted (a reorg removed a reported event),
 * monitor.delivery.failed (a webhook delivery finally failed),
 * monitor.status (a monitor expired or ran out of budget).
 */
export const MAX_NOTIFICATIONS = 200;

export function notify(deps: Deps, tx: StoreTx, n: Pick<NotificationRecord, 'accountId' | 'monitorId' | 'kind' | 'title' | 'body' | 'event'>): NotificationRecord {
  const seq = (tx.getMeta<number>('notificationSeq') ?? 0) + 1;
  tx.setMeta('notificationSeq', seq);
  const record: NotificationRecord = { ...n, id: deps.random.uuid(), seq, createdAt: iso(deps.clock.now()), acknowledgedAt: null };
  tx.put('notifications', record);
  return record;
}

export function notificationView(n: NotificationRecord) {
  return { id: n.id, monitorId: n.monitorId, kind: n.kind, title: n.title, body: n.body, event: n.event, createdAt: n.createdAt, acknowledgedAt: n.acknowledgedAt };
}

/** Spec 4.13: up to 200, newest first; notifications are archived and grouped by account, so only these are read back. */
export function notificationsOf(deps: Deps, accountId: string) {
  return newestRows(deps.store, 'notifications', accountId, MAX_NOTIFICATIONS)
    .sort((a, b) => b.seq - a.seq)
    .map(notificationView);
}

/** Sets acknowledgedAt once; repeating returns the current state. */
export function acknowledge(deps: Deps, key: ApiKeyRecord, id: string) {
  const n = deps.store.get('notifications', id);
  if (!n || n.accountId !== key.accountId) throw errors.notFound('This notification was not found.');
  if (n.acknowledgedAt) return notificationView(n);
  return transact(deps, (tx) => {
    const next = { ...n, acknowledgedAt: iso(deps.clock.now()) };
    tx.put('notifications', next);
    return notificationView(next);
  });
}
