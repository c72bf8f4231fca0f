import type { AgentQuery } from './agent-query.ts';
import type { Http } from './http.ts';
import type { RetryObserver } from './retry.ts';
import type {
  Acceptance,
  AcceptQuoteBody,
  AgentDetail,
  AgentPage,
  ApiKey,
  Billing,
  CreateMonitorBody,
  CreateQuoteBody,
  ExportResult,
  Monitor,
  MonitorCreated,
  MonitorDetail,
  Notification,
  Quote,
  RailCatalog,
  Rail,
  Receipt,
  Run,
  RunExport,
  RunRead,
} from './types.ts';

/** The artifact header of GET /v1/runs/{id}/export (spec 2.12). */
export const ARTIFACT_ID_HEADER = 'x-service-artifact-id';

const seg = encodeURIComponent;

/**
 * One method per route of spec part 4 (rehearsal routes included, through
 * `rail`). Single-resource wrappers ({ key }, { agent }, { quote }, { run },
 * { monitor }, { notification }, { monitors }, { notifications }) are
 * unwrapped; compound answers are returned whole.
 */
export function createV1(http: Http) {
  const get = async <T>(path: string, query?: object) => (await http.send<T>({ method: 'GET', path, query })).body;

  return {
    async getKey(): Promise<ApiKey> {
      return (await get<{ key: ApiKey }>('/v1/buyer/key')).key;
    },

    /** Spec part 4 shows neither shape nor scope; it publishes the platform-wide queue bound. */
    capabilities(): Promise<Record<string, unknown>> {
      return get('/v1/capabilities');
    },

    listAgents(query: AgentQuery = {}): Promise<AgentPage> {
      return get('/v1/public/agents', query);
    },

    async getAgent(listingId: string): Promise<AgentDetail> {
      return (await get<{ agent: AgentDetail }>(`/v1/public/agents/${seg(listingId)}`)).agent;
    },

    /** Spec 4.2: only the Solana rail takes assetId. */
    catalog(rail: Rail, assetId?: string): Promise<RailCatalog> {
      return get(`/v1/${rail}/catalog`, rail === 'solana-custody' ? { assetId } : undefined);
    },

    /** Spec 4.3: never retried; after a lost response, create another quote. */
    async createQuote(rail: Rail, body: CreateQuoteBody): Promise<Quote> {
      return (await http.send<{ quote: Quote }>({ method: 'POST', path: `/v1/${rail}/quotes`, body, retry: 'never' })).body.quote;
    },

    /**
     * Spec 4.4: a repeat with the same idempotency key returns the original run, so retries are safe.
     * A run limit's 429 carries Retry-After: `onRetryWait` sees each wait and may end it.
     */
    async acceptQuote(rail: Rail, quoteId: string, body: AcceptQuoteBody, options: { onRetryWait?: RetryObserver } = {}): Promise<Acceptance> {
      return (await http.send<Acceptance>({ method: 'POST', path: `/v1/${rail}/quotes/${seg(quoteId)}/accept`, body, retry: 'safe', onRetryWait: options.onRetryWait })).body;
    },

    billing(rail: Rail, runId: string): Promise<Billing> {
      return get(`/v1/${rail}/runs/${seg(runId)}/billing`);
    },

    getRun(runId: string): Promise<RunRead> {
      return get(`/v1/runs/${seg(runId)}`);
    },

    /** Spec 3.2: cancelling an ended run returns it as is, so retries are safe. */
    async cancelRun(runId: string): Promise<Run> {
      return (await http.send<{ run: Run }>({ method: 'POST', path: `/v1/runs/${seg(runId)}/cancel`, retry: 'safe' })).body.run;
    },

    async exportRun(runId: string): Promise<ExportResult> {
      const response = await http.send<RunExport>({ method: 'GET', path: `/v1/runs/${seg(runId)}/export` });
      return { export: response.body, artifactId: response.headers.get(ARTIFACT_ID_HEADER) };
    },

    receipt(runId: string): Promise<Receipt> {
      return get(`/v1/runs/${seg(runId)}/receipt`);
    },

    async listMonitors(): Promise<Monitor[]> {
      return (await get<{ monitors: Monitor[] }>('/v1/monitors')).monitors;
    },

    /** Spec 4.10 rule 4: the same idempotency key and body replay (200), so retries are safe. */
    async createMonitor(body: CreateMonitorBody): Promise<MonitorCreated> {
      return (await http.send<MonitorCreated>({ method: 'POST', path: '/v1/monitors', body, retry: 'safe' })).body;
    },

    getMonitor(monitorId: string): Promise<MonitorDetail> {
      return get(`/v1/monitors/${seg(monitorId)}`);
    },

    async stopMonitor(monitorId: string): Promise<Monitor> {
      return (await http.send<{ monitor: Monitor }>({ method: 'POST', path: `/v1/monitors/${seg(monitorId)}/stop`, retry: 'safe' })).body.monitor;
    },

    async listNotifications(): Promise<Notification[]> {
      return (await get<{ notifications: Notification[] }>('/v1/notifications')).notifications;
    },

    async ackNotification(notificationId: string): Promise<Notification> {
      return (await http.send<{ notification: Notification }>({ method: 'POST', path: `/v1/notifications/${seg(notificationId)}/ack`, retry: 'safe' })).body.notification;
    },

    /** Spec 9.2: OpenAPI 3.1, fetched without a key. */
    async openapi(): Promise<Record<string, unknown>> {
      return (await http.send<Record<string, unknown>>({ method: 'GET', path: '/v1/openapi.json', credential: 'none' })).body;
    },
  };
}

export type V1Api = ReturnType<typeof createV1>;

/** Spec 2.2 and part 5: the rail a key's profile quotes on. */
export function railOf(profile: string): Rail {
  if (profile === 'local_custody') return 'custody';
  if (profile === 'sim') return 'rehearsal';
  return 'solana-custody';
}
