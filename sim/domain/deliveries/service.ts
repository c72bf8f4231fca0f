import type { WebhookSender } from '../../runtime/webhook-sender.ts';
import type { Deps } from '../context.ts';
import { deliveryView } from './deliveries.ts';
import { confirmChatCode, createDestination, destinationView, requireDestination, revokeDestination, subscribe, unsubscribe, verifyDestination } from './destinations.ts';
import { newestRows } from '../newest-rows.ts';

/** Destinations, subscriptions and the delivery log (contract section 2); `send` is how a verification reaches its receiver. */
export function createDeliveries(deps: Deps, send: WebhookSender) {
  return {
    createDestination(accountId: string, input: { url: string; kind?: 'https' | 'chat' }) {
      const { destination, signingSecret } = createDestination(deps, accountId, input);
      return { destination: destinationView(destination), signingSecret };
    },
    destination: (id: string) => destinationView(requireDestination(deps, id)),
    async verify(id: string) {
      const { destination, chatCode } = await verifyDestination(deps, send, id);
      return { destination: destinationView(destination), ...(chatCode ? { chatCode } : {}) };
    },
    confirm: (id: string, code: string) => destinationView(confirmChatCode(deps, id, code)),
    revoke: (id: string) => destinationView(revokeDestination(deps, id)),
    subscribe: (monitorId: string, destinationId: string) => subscribe(deps, monitorId, destinationId),
    unsubscribe: (monitorId: string, destinationId: string) => unsubscribe(deps, monitorId, destinationId),
    /** The newest `limit` deliveries (archived: only these are read back) and their attempts, oldest first. */
    log(limit: number) {
      const deliveries = newestRows(deps.store, 'deliveries', null, limit).reverse();
      const attempts = deliveries.flatMap((d) => d.attempts.map((a) => ({ deliveryId: d.id, purpose: d.purpose, monitorId: d.monitorId, destinationId: d.destinationId, type: d.type, time: a.at, attempt: a.attempt, outcome: a.outcome, status: a.httpStatus, error: a.error })));
      attempts.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
      return { attempts: attempts.slice(-limit), deliveries: deliveries.map(deliveryView) };
    },
  };
}

export type DeliveriesService = ReturnType<typeof createDeliveries>;
