/**
 * The console's webhook inbox, as the console sees it: a local receiver on
 * 127.0.0.1 that verifies signed deliveries (spec 6.2) and reports each one.
 * The receiver (src/webhook/inbox.ts around src/webhook/receiver.ts) is started by the process
 * that wires the console (src/cli/tui.ts) and handed in, so the console
 * keeps to ink, react, zustand and the client.
 */
export interface InboxDelivery {
  /** Simulated time of arrival (the receiver's clock is the simulator's). */
  receivedAt: string;
  eventId: string | null;
  /** verified, duplicate-dropped, or why it was refused (bad-signature, stale-timestamp, ...). */
  verdict: string;
  /** What the receiver answered. */
  status: number;
  type: string | null;
  /** How many times this event id has arrived so far, this one included (retries keep the id, spec 6.2). */
  seenCount: number;
  payload: Record<string, unknown> | null;
}

export interface WebhookInbox {
  /** Where deliveries are received, e.g. http://127.0.0.1:40123/inbox. */
  url: string;
  /** The signing secret deliveries are verified with: the destination's, once one is created. */
  setSecret(secret: string): void;
  deliveries(): InboxDelivery[];
  /** Called after every delivery; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}
