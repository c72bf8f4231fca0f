import type { ConsoleMemory } from '../console-memory.ts';
import type { WebhookInbox, InboxDelivery } from '../webhook-inbox.ts';
import { clampScroll } from './scroll.ts';
import type { SliceContext } from './call.ts';

export interface InboxState {
  /** null when the console has no receiver (remote service, or none started). */
  url: string | null;
  deliveries: InboxDelivery[];
  destination: { id: string; state: string } | null;
  subscribedMonitorIds: string[];
  scroll: number;
}

export interface InboxActions {
  refreshInbox(): void;
  connectInbox(): Promise<void>;
  scrollInbox(delta: number, maxScroll: number): void;
  loadDestination(): Promise<void>;
  repointInbox(): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    inbox: InboxState;
  }
  interface ConsoleActions {
    inbox: InboxActions;
  }
}

/**
 * Spec 3.8 and 6.2 leave destinations to the web session; in production the
 * service delivers only to public https addresses, and the console's receiver
 * listens on plain http at 127.0.0.1, which production cannot reach.
 */
export const PRODUCTION_INBOX =
  'In production, webhooks are delivered only to public https addresses that the service can reach; the console’s inbox listens on http://127.0.0.1, so it cannot receive there. Use in-app notifications (screen 6), or a public https receiver configured in the web session.';

export const emptyInbox = (inbox: WebhookInbox | null | undefined): InboxState => ({
  url: inbox?.url ?? null,
  deliveries: inbox?.deliveries() ?? [],
  destination: null,
  subscribedMonitorIds: [],
  scroll: 0,
});

/**
 * The webhook inbox: deliveries the console's own receiver got, and the one
 * key that points the simulator at it. Destinations are web-session only in
 * production (spec 1), so this goes through the control API: create the
 * destination, answer its ownership challenge (spec 6.2), subscribe monitors.
 */
export function inboxActions({ set, get, call, client }: SliceContext, inbox: WebhookInbox | null | undefined, memory: ConsoleMemory | null): InboxActions {
  const patch = (partial: Partial<InboxState>) => set((s) => ({ inbox: { ...s.inbox, ...partial } }));

  async function connectInbox() {
    const { controlAvailable, accountId, environment } = get();
    if (!inbox || !controlAvailable || !accountId) {
      set({ error: { code: 'console_error', message: 'The webhook inbox needs the control API and the console’s own receiver (not available against a remote service).', status: null } });
      return;
    }
    if (environment === 'production') {
      set({ error: { code: 'console_error', message: PRODUCTION_INBOX, status: null } });
      return;
    }
    let destination = get().inbox.destination;
    if (!destination || destination.state === 'revoked') {
      const created = await call((c) => c.sim.createDestination(accountId, { url: inbox.url }));
      if (!created.ok) return;
      // The receiver verifies with the destination's signing secret, shown only in this answer.
      inbox.setSecret(created.value.signingSecret);
      destination = { id: created.value.destination.id, state: String(created.value.destination.state ?? 'needs verification') };
      memory?.setInboxDestinationId(destination.id);
      patch({ destination, subscribedMonitorIds: [] });
    }
    if (destination.state !== 'verified' && destination.state !== 'failing') {
      const id = destination.id;
      const verified = await call((c) => c.sim.verifyDestination(id));
      if (!verified.ok) return;
      destination = { id, state: String(verified.value.state ?? 'unknown') };
      patch({ destination });
      if (destination.state !== 'verified') {
        set({ error: { code: 'console_error', message: `The destination is ${destination.state} after the ownership challenge: ${String(verified.value.lastError ?? 'no answer')}.`, status: null } });
        return;
      }
    }
    // Spec 3.8: only verified destinations can be subscribed; subscribe every active monitor not yet subscribed.
    const monitors = await call((c) => c.v1.listMonitors());
    if (!monitors.ok) return;
    const already = new Set(get().inbox.subscribedMonitorIds);
    const fresh = monitors.value.filter((m) => m.status === 'active' && !already.has(m.id));
    const destinationId = destination.id;
    for (const monitor of fresh) {
      const subscribed = await call((c) => c.sim.subscribe(monitor.id, destinationId));
      if (!subscribed.ok) return;
      already.add(monitor.id);
    }
    patch({ subscribedMonitorIds: [...already] });
    set({
      notice:
        fresh.length > 0
          ? `destination ${destination.state}; subscribed ${fresh.length} monitor${fresh.length === 1 ? '' : 's'}`
          : `destination ${destination.state}; no new active monitor to subscribe (create one on screen 5)`,
    });
    patch({ deliveries: inbox.deliveries() });
  }

  return {
    /**
     * A destination left by an earlier session points at that session's
     * receiver, whose port is gone: deliveries to it would fail (connection
     * refused) and count towards failing, and its signing secret was shown
     * to that session only. It is revoked (spec 3.8: its subscriptions go
     * with it) and the inbox connected afresh, so monitor events keep
     * reaching the console across restarts.
     */
    async repointInbox() {
      const stale = memory?.inboxDestinationId();
      if (!stale || !inbox || !get().controlAvailable || get().environment === 'production') return;
      memory?.setInboxDestinationId(null);
      try {
        if ((await client.sim.destination(stale)).state !== 'revoked') await client.sim.revokeDestination(stale);
      } catch {
        // Gone with a reset store, and its monitors with it: nothing to re-point.
        return;
      }
      await connectInbox();
      if (!get().error && get().notice) set((s) => ({ notice: `inbox re-pointed to this session's receiver: ${s.notice}` }));
    },

    refreshInbox() {
      if (inbox) patch({ deliveries: inbox.deliveries() });
    },

    async loadDestination() {
      const destination = get().inbox.destination;
      if (!destination || !get().controlAvailable) return;
      const result = await call((c) => c.sim.destination(destination.id));
      if (result.ok) patch({ destination: { id: destination.id, state: String(result.value.state ?? destination.state) } });
    },

    connectInbox,

    scrollInbox(delta, maxScroll) {
      set((s) => ({ inbox: { ...s.inbox, scroll: clampScroll(s.inbox.scroll + delta, maxScroll) } }));
    },
  };
}
