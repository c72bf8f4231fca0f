import type { Notification } from '../../client/index.ts';
import type { SliceContext } from './call.ts';

export interface NotificationsState {
  list: Notification[] | null;
  selected: number;
}

export interface NotificationActions {
  loadNotifications(): Promise<void>;
  moveNotificationSelection(delta: number): void;
  ackNotification(): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    notifications: NotificationsState;
  }
  interface ConsoleActions {
    notifications: NotificationActions;
  }
}

export const emptyNotifications = (): NotificationsState => ({ list: null, selected: 0 });

/** In-app notifications (spec 2.14): ETH keys only. */
export function notificationActions({ set, get, call }: SliceContext): NotificationActions {
  const patchNotifications = (partial: Partial<NotificationsState>) => set((s) => ({ notifications: { ...s.notifications, ...partial } }));

  async function loadNotifications() {
    const result = await call((c) => c.v1.listNotifications());
    if (!result.ok) return;
    const { selected } = get().notifications;
    patchNotifications({ list: result.value, selected: Math.min(selected, Math.max(0, result.value.length - 1)) });
  }

  return {
    loadNotifications,
    moveNotificationSelection(delta) {
      const { list, selected } = get().notifications;
      const last = Math.max(0, (list?.length ?? 0) - 1);
      patchNotifications({ selected: Math.min(last, Math.max(0, selected + delta)) });
    },

    // Spec 3.7: repeating the acknowledgement returns the current state.
    async ackNotification() {
      const notification = get().notifications.list?.[get().notifications.selected];
      if (!notification) return;
      const result = await call((c) => c.v1.ackNotification(notification.id));
      if (!result.ok) return;
      const acked = result.value;
      patchNotifications({ list: (get().notifications.list ?? []).map((n) => (n.id === acked.id ? acked : n)) });
      set({ notice: `acknowledged "${acked.title}"` });
    },
  };
}
