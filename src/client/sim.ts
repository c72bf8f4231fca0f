import type { Http, HttpRequest } from './http.ts';
import type {
  AccountType,
  ApiKey,
  Billing,
  ClockAdvance,
  CreateMonitorBody,
  MonitorCreated,
  Profile,
  Run,
  SimAccount,
  SimAccountView,
  SimAdvanced,
  SimBalance,
  SimBlock,
  SimChainLog,
  SimClock,
  SimCreatedKey,
  SimCreateKeyBody,
  SimDestination,
  SimFaults,
  SimChainHead,
  SimDeliveryLog,
  SimLedgerEntry,
  SimRequestLogEntry,
  SimRunRead,
  SimRunScript,
  SimRunSummary,
} from './types.ts';
import type { SimChaos, SimConductReport } from './conduct-report.ts';

const seg = encodeURIComponent;

/**
 * One method per route of the control API (contract section 2), plus the
 * reads the simulator serves beside them (account list, ledger, keys,
 * faults). Every request carries the control token, never the API key.
 * Only reads are retried: a repeated deposit would deposit twice.
 */
export function createSim(http: Http) {
  const call = async <T>(method: HttpRequest['method'], path: string, body?: unknown, query?: object) =>
    (await http.send<T>({ method, path, body, query, credential: 'control' })).body;

  return {
    async reset(seed?: string | number): Promise<void> {
      await call('POST', '/sim/reset', seed === undefined ? {} : { seed });
    },
    clock: () => call<SimClock>('GET', '/sim/clock'),
    advance: (to: ClockAdvance) => call<SimAdvanced>('POST', '/sim/clock/advance', to),

    accounts: async () => (await call<{ accounts: SimAccount[] }>('GET', '/sim/accounts')).accounts,
    createAccount: async (body: { type: AccountType; label?: string }) => (await call<{ account: SimAccount }>('POST', '/sim/accounts', body)).account,
    account: (accountId: string) => call<SimAccountView>('GET', `/sim/accounts/${seg(accountId)}`),
    ledger: async (accountId: string) => (await call<{ entries: SimLedgerEntry[] }>('GET', `/sim/accounts/${seg(accountId)}/ledger`)).entries,
    keys: async (accountId: string) => (await call<{ keys: ApiKey[] }>('GET', `/sim/accounts/${seg(accountId)}/keys`)).keys,
    deposit: async (accountId: string, body: { profile: Profile; amountAtomic: string }) =>
      (await call<{ balance: SimBalance }>('POST', `/sim/accounts/${seg(accountId)}/deposits`, body)).balance,

    createKey: (accountId: string, body: SimCreateKeyBody) => call<SimCreatedKey>('POST', `/sim/accounts/${seg(accountId)}/keys`, body),
    revokeKey: async (keyId: string) => (await call<{ key: ApiKey }>('POST', `/sim/keys/${seg(keyId)}/revoke`)).key,

    scriptRun: async (runId: string, body: SimRunScript) => (await call<{ run: Run }>('POST', `/sim/runs/${seg(runId)}/script`, body)).run,
    /** Every run (newest first, at most 200), or one account's: the control API's view, which a key has no route for (spec 4). */
    runs: async (accountId?: string) => (await call<{ runs: SimRunSummary[] }>('GET', '/sim/runs', undefined, { accountId })).runs,
    /** A run with its plan, pinned block, events and billing. */
    run: (runId: string) => call<SimRunRead>('GET', `/sim/runs/${seg(runId)}`),
    reconcileRun: async (runId: string, body: { confirmed: boolean }) => (await call<{ billing: Billing }>('POST', `/sim/runs/${seg(runId)}/reconcile`, body)).billing,

    chain: (chain: string) => call<SimChainHead>('GET', `/sim/chains/${seg(chain)}`),
    mineBlocks: async (chain: string, body: { count?: number; logs?: SimChainLog[] } = {}) =>
      (await call<{ blocks: SimBlock[] }>('POST', `/sim/chains/${seg(chain)}/blocks`, body)).blocks,
    reorg: (chain: string, body: { depth: number; logs?: SimChainLog[] }) =>
      call<{ removed: unknown[]; blocks: SimBlock[] }>('POST', `/sim/chains/${seg(chain)}/reorg`, body),

    /** Monitor creation as the signed-in owner: the /v1/monitors body plus web-session fields. */
    createAccountMonitor: (accountId: string, body: CreateMonitorBody & Record<string, unknown>) =>
      call<MonitorCreated>('POST', `/sim/accounts/${seg(accountId)}/monitors`, body),

    createDestination: (accountId: string, body: { url: string; kind?: 'https' | 'chat' }) =>
      call<{ destination: SimDestination; signingSecret: string }>('POST', `/sim/accounts/${seg(accountId)}/destinations`, body),
    destination: async (destinationId: string) => (await call<{ destination: SimDestination }>('GET', `/sim/destinations/${seg(destinationId)}`)).destination,
    verifyDestination: async (destinationId: string) =>
      (await call<{ destination: SimDestination }>('POST', `/sim/destinations/${seg(destinationId)}/verify`)).destination,
    revokeDestination: async (destinationId: string) =>
      (await call<{ destination: SimDestination }>('POST', `/sim/destinations/${seg(destinationId)}/revoke`)).destination,
    subscribe: async (monitorId: string, destinationId: string) =>
      (await call<{ subscription: Record<string, unknown> }>('POST', `/sim/monitors/${seg(monitorId)}/subscriptions`, { destinationId })).subscription,
    async unsubscribe(monitorId: string, destinationId: string): Promise<void> {
      await call('DELETE', `/sim/monitors/${seg(monitorId)}/subscriptions/${seg(destinationId)}`);
    },

    faults: async () => (await call<{ faults: SimFaults }>('GET', '/sim/faults')).faults,
    setFaults: async (faults: SimFaults) => (await call<{ faults: SimFaults }>('PUT', '/sim/faults', faults)).faults,
    patchListing: async (listingId: string, body: { active?: boolean }) =>
      (await call<{ listing: Record<string, unknown> }>('PATCH', `/sim/listings/${seg(listingId)}`, body)).listing,
    async expireExport(runId: string): Promise<void> {
      await call('POST', `/sim/runs/${seg(runId)}/export/expire`);
    },

    /** GET /sim/chaos: the chaos in force (docs/drill.md). */
    chaos: () => call<SimChaos>('GET', '/sim/chaos'),
    /** PUT /sim/chaos: 'calm', 'flaky', 'storm', a profile object, or null to lift it; `seed` restarts the fault stream from it. */
    setChaos: (profile: string | Record<string, unknown> | null, seed?: string | number) => call<SimChaos>('PUT', '/sim/chaos', seed === undefined ? { profile } : { profile, seed }),
    /** GET /sim/report: the graded conduct of one key (or of every key). */
    report: (keyId?: string) => call<SimConductReport>('GET', '/sim/report', undefined, { keyId }),
    requests: async (limit?: number) => listOf<SimRequestLogEntry>(await call('GET', '/sim/requests', undefined, { limit }), 'requests'),
    deliveries: async () => listOf<Record<string, unknown>>(await call('GET', '/sim/deliveries'), 'deliveries'),
    /** The delivery log with both of its lists: every attempt, and the deliveries they belong to. */
    deliveryLog: async (limit?: number): Promise<SimDeliveryLog> => {
      const body = (await call<Partial<SimDeliveryLog>>('GET', '/sim/deliveries', undefined, { limit })) ?? {};
      return { attempts: body.attempts ?? [], deliveries: body.deliveries ?? [] };
    },
  };
}

export type SimApi = ReturnType<typeof createSim>;

/** The contract names these logs but not their wrapper: accept { <field>: [...] } or a bare array. */
function listOf<T>(body: unknown, field: string): T[] {
  if (Array.isArray(body)) return body as T[];
  return ((body as Record<string, unknown> | undefined)?.[field] as T[] | undefined) ?? [];
}
