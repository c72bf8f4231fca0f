import type { ConsoleState } from '../state/console-state.ts';
import { hasControl, scrollCommands, selectCommands, type Command } from './command.ts';

const monitorStoppable = (state: ConsoleState) => {
  const { detail, isDetailOpen, list, selected } = state.monitors;
  const monitor = (isDetailOpen ? detail?.monitor : undefined) ?? list?.[selected];
  return monitor?.status === 'active' || monitor?.status === 'paused';
};
const notificationUnread = (state: ConsoleState) => {
  const notification = state.notifications.list?.[state.notifications.selected];
  return notification !== undefined && !notification.acknowledgedAt;
};

/** The ledger, monitors, notifications, webhook inbox, request log and faults screens. */
export const controlCommands: Command[] = [
  // ledger
  ...scrollCommands('ledger', (actions, delta, max) => actions.ledger.scrollLedger(delta, max)),

  // monitors: the list, then one monitor
  ...selectCommands('monitors', (actions, delta) => actions.monitors.moveMonitorSelection(delta)),
  { id: 'monitors-open', scope: 'monitors', keys: [{ key: 'return' }], label: '⏎', description: 'detail', run: ({ actions }) => void actions.monitors.openSelectedMonitor() },
  { id: 'monitors-new', scope: 'monitors', keys: [{ input: 'n' }], label: 'n', description: 'new demo monitor', run: ({ actions }) => void actions.monitors.createDemoMonitor() },
  { id: 'monitors-mine', scope: 'monitors', keys: [{ input: 'm' }], label: 'm', description: 'mine match', when: hasControl, run: ({ actions }) => void actions.monitors.mineMatchingLog() },
  { id: 'monitors-stop', scope: 'monitors', keys: [{ input: 'x' }], label: 'x', description: 'stop', when: monitorStoppable, run: ({ actions }) => void actions.monitors.stopMonitor() },
  ...scrollCommands('monitor', (actions, delta, max) => actions.monitors.scrollMonitor(delta, max)),
  { id: 'monitor-mine', scope: 'monitor', keys: [{ input: 'm' }], label: 'm', description: 'mine match', when: hasControl, run: ({ actions }) => void actions.monitors.mineMatchingLog() },
  { id: 'monitor-stop', scope: 'monitor', keys: [{ input: 'x' }], label: 'x', description: 'stop', when: monitorStoppable, run: ({ actions }) => void actions.monitors.stopMonitor() },
  { id: 'monitor-back', scope: 'monitor', keys: [{ key: 'escape' }], label: 'esc', description: 'monitors', run: ({ actions }) => actions.monitors.closeMonitor() },

  // notifications
  ...selectCommands('notifications', (actions, delta) => actions.notifications.moveNotificationSelection(delta)),
  { id: 'notifications-ack', scope: 'notifications', keys: [{ input: 'a' }], label: 'a', description: 'acknowledge', when: notificationUnread, run: ({ actions }) => void actions.notifications.ackNotification() },

  // webhook inbox
  { id: 'inbox-connect', scope: 'inbox', keys: [{ input: 'c' }], label: 'c', description: 'connect monitors', when: hasControl, run: ({ actions }) => void actions.inbox.connectInbox() },
  ...scrollCommands('inbox', (actions, delta, max) => actions.inbox.scrollInbox(delta, max)),

  // request log
  ...scrollCommands('requests', (actions, delta, max) => actions.requests.scrollRequests(delta, max)),

  // faults
  ...selectCommands('faults', (actions, delta) => actions.faults.moveFaultRow(delta), 'switch'),
  { id: 'faults-toggle', scope: 'faults', keys: [{ input: ' ' }, { key: 'return' }], label: 'space', helpKeys: 'space ⏎', description: 'toggle', when: hasControl, run: ({ actions }) => void actions.faults.toggleFault() },

];
