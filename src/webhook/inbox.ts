import type { AddressInfo } from 'node:net';
import type { Client } from '../client/index.ts';
import type { InboxDelivery, WebhookInbox } from '../tui/webhook-inbox.ts';
import { createReceiver, type ReceivedDelivery, type ReceiverOptions } from './receiver.ts';

/**
 * The console's webhook inbox: src/webhook/receiver.ts on 127.0.0.1. It
 * judges timestamps by the wall clock, as spec 6.2's receiver does and as the
 * simulator signs (serve --webhook-time wall, the console's own), and shows
 * each delivery at the simulator's time, the time the rest of the console
 * shows. It verifies with the signing secret of the destination the console
 * creates, set once known.
 */
export async function startWebhookInbox(client: Client): Promise<WebhookInbox> {
  let secret = '';
  let lastNowIso = new Date().toISOString();
  const received: InboxDelivery[] = [];
  const seenCounts = new Map<string, number>();
  const listeners = new Set<() => void>();
  const options: ReceiverOptions = {
    // Read at every delivery, so the secret can be set after the receiver starts.
    get secret() {
      return secret;
    },
    nowSeconds: async () => {
      try {
        lastNowIso = (await client.sim.clock()).now;
      } catch {
        lastNowIso = new Date().toISOString();
      }
      return Math.floor(Date.now() / 1000);
    },
    onDelivery: (delivery: ReceivedDelivery) => {
      const seenCount = delivery.eventId ? (seenCounts.get(delivery.eventId) ?? 0) + 1 : 1;
      if (delivery.eventId) seenCounts.set(delivery.eventId, seenCount);
      received.push({ receivedAt: lastNowIso, eventId: delivery.eventId, verdict: delivery.verdict, status: delivery.status, type: delivery.type, seenCount, payload: delivery.payload });
      for (const listener of listeners) listener();
    },
  };
  const server = createReceiver(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/inbox`,
    setSecret(value) {
      secret = value;
    },
    deliveries: () => [...received],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

