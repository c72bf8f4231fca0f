import { ApiError, createClient, railOf, type Client } from '../client/index.ts';
import { termsFromVersion, type WaterfallInput } from './waterfall.ts';
import type { Profile } from './units.ts';

/**
 * Everything the service answers about one run, over HTTP only: the run read,
 * billing, receipt and export through /v1 with a key, and (on the simulator)
 * the account's ledger lines through /sim. Without a key, on the simulator,
 * a read-only key (runs:read, billing:read, no spend) is made on the run's
 * account for the reads and revoked after: support never needs the
 * customer's secret.
 */
type Json = Record<string, unknown>;

export interface CollectOptions {
  url: string;
  runId: string;
  key?: string;
  controlToken?: string;
}

export interface CollectedCase {
  runId: string;
  profile: Profile | null;
  run: Json;
  billing: Json;
  receipt: Json | null;
  export: Json | null;
  ledger: Json[] | null;
  /** Secrets used while collecting: none may appear in anything written. */
  secrets: string[];
}

const orNull = async <T>(read: () => Promise<T>, absent: number[]): Promise<T | null> => {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && absent.includes(error.status)) return null;
    throw error;
  }
};

async function controlRun(control: Client, runId: string): Promise<{ accountId: string; profile: Profile } | null> {
  const read = await orNull(() => control.sim.run(runId), [404, 401, 403, 503]);
  const run = read?.run as unknown as { accountId?: string; profile?: Profile } | undefined;
  return run?.accountId && run.profile ? { accountId: run.accountId, profile: run.profile } : null;
}

export async function collectCase(options: CollectOptions): Promise<CollectedCase> {
  const control = createClient({ baseUrl: options.url, controlToken: options.controlToken, retries: 0 });
  const owner = await controlRun(control, options.runId);
  let key = options.key;
  let madeKeyId: string | null = null;
  if (!key) {
    if (!owner) throw new Error(`run ${options.runId}: no key given (--key or UNDERSTUDY_KEY) and the control API at ${options.url} does not know the run`);
    const made = await control.sim.createKey(owner.accountId, { profile: owner.profile, spendLimitAtomic: '0', scopes: ['runs:read', 'billing:read'], name: 'support case (read only)' } as never);
    key = made.secret;
    madeKeyId = made.key.id;
  }
  const secrets = [key];
  try {
    const client = createClient({ baseUrl: options.url, key });
    const profile = (owner?.profile ?? ((await client.v1.getKey()) as unknown as { profile?: Profile }).profile ?? null) as Profile | null;
    if (!profile) throw new Error('the key names no payment profile');
    const runRead = (await client.v1.getRun(options.runId)) as unknown as Json;
    const billing = (await client.v1.billing(railOf(profile), options.runId)) as unknown as Json;
    const receipt = (await orNull(() => client.v1.receipt(options.runId), [404])) as Json | null;
    const exported = await orNull(() => client.v1.exportRun(options.runId), [409, 410, 503]);
    const ledger = owner ? ((await control.sim.ledger(owner.accountId)) as unknown as Json[]).filter((line) => line.runId === options.runId && line.profile === profile) : null;
    return { runId: options.runId, profile, run: runRead, billing, receipt, export: (exported?.export as unknown as Json | undefined) ?? null, ledger, secrets };
  } finally {
    if (madeKeyId) await control.sim.revokeKey(madeKeyId);
  }
}

export function waterfallInputOf(collected: CollectedCase): WaterfallInput {
  return {
    runId: collected.runId,
    profile: collected.profile,
    run: (collected.run.run as Json | undefined) ?? null,
    events: (collected.run.events as unknown[] | undefined) ?? [],
    billing: collected.billing,
    quote: (collected.receipt?.quote as Json | undefined) ?? termsFromVersion((collected.export?.version as Json | undefined) ?? null, collected.profile, (collected.run.run as Json | undefined)?.status, collected.ledger?.find((line) => line.kind === 'reserve')?.amountAtomic),
    ledger: collected.ledger,
  };
}
