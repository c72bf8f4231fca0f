/**
 * Builds a store holding N runs, through the domain functions (no HTTP), for
 * the accept-latency and memory measurements. The run limits stay on (3 active
 * and 20 per 24 h per account), so runs are spread over ceil(N / 20) accounts
 * and the clock is advanced between rounds: every run ends (succeeded, partial
 * or failed, settled) as it would in a long-lived store. Then a few fresh
 * "buyer" accounts are added, each able to accept 3 more runs, and the store is
 * closed (compacted into its snapshot file).
 */
import { basename, dirname, join } from 'node:path';
import { readdir, stat } from 'node:fs/promises';
import { TOKEN_RESEARCH_LISTING_ID } from '../fixtures/listings/index.ts';
import { acceptQuote } from '../sim/domain/quotes/index.ts';
import { createAccount, depositTo } from '../sim/domain/ledger/index.ts';
import { createKey, DEFAULT_SCOPES } from '../sim/domain/keys/index.ts';
import { createQuote } from '../sim/domain/quotes/index.ts';
import type { ApiKeyRecord } from '../sim/domain/keys/index.ts';
import type { Deps } from '../sim/domain/context.ts';
import { Simulator } from '../sim/simulator.ts';
import { setPlatformQueueBound } from '../sim/domain/runs/index.ts';

export const PROFILE = 'local_custody' as const;
export const RAIL = 'custody' as const;
export const RAIL_PATH = '/v1/custody';
export const LISTING_ID = TOKEN_RESEARCH_LISTING_ID;
export const INPUT = { chain: 'ethereum', address: `0x${'ab'.repeat(20)}` };

const RUNS_PER_ACCOUNT_PER_DAY = 20;
const ACTIVE_RUNS_PER_ACCOUNT = 3;
/** Longer than any default run of the listing (queue delay + its duration). */
const ROUND_SECONDS = 900;

export interface Buyer {
  accountId: string;
  keyId: string;
  secret: string;
}

export interface PopulatedStore {
  storePath: string;
  runs: number;
  /** Fresh accounts, 3 acceptances each. */
  buyers: Buyer[];
  /** A key of the bulk accounts and one of its runs (for reads). */
  reader: { secret: string; runId: string };
  buildMs: number;
  /** On disk: the snapshot, its journal and its archive. */
  storeBytes: number;
}

export function fundedBuyer(deps: Deps, label: string): Buyer & { key: ApiKeyRecord } {
  const account = createAccount(deps, { type: 'evm', label });
  depositTo(deps, account.id, PROFILE, (10n ** 24n).toString());
  const { key, secret } = createKey(deps, account.id, {
    profile: PROFILE,
    spendLimitAtomic: (10n ** 30n).toString(),
    name: label,
    scopes: [...DEFAULT_SCOPES, 'runs:cancel'],
    expiresInDays: 90,
  });
  return { accountId: account.id, keyId: key.id, secret, key };
}

/** One quote and its acceptance, as POST .../quotes and .../accept do. */
export function quoteAndAccept(deps: Deps, key: ApiKeyRecord, idempotencyKey: string): string {
  const quote = createQuote(deps, key, RAIL, { listingId: LISTING_ID, input: INPUT });
  return acceptQuote(deps, key, RAIL, quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey }).runId;
}

export async function populateStore(dir: string, options: { runs: number; buyers: number }): Promise<PopulatedStore> {
  const started = performance.now();
  const storePath = join(dir, 'store.json');
  const sim = await Simulator.open({ storePath, clock: 'frozen', seed: 'bench', limits: false });
  const deps = sim.deps;
  // A round queues 3 runs of every bulk account at once, far past the platform's default queue
  // bound (spec 8); the bench measures a store's size, not that refusal, so the bound is lifted.
  setPlatformQueueBound(deps, 1_000_000);
  const bulk = Array.from({ length: Math.ceil(options.runs / RUNS_PER_ACCOUNT_PER_DAY) }, (_, i) => ({ ...fundedBuyer(deps, `bulk ${i}`), made: 0 }));
  let made = 0;
  let firstRun = '';
  while (made < options.runs) {
    for (const account of bulk) {
      for (let i = 0; i < ACTIVE_RUNS_PER_ACCOUNT && account.made < RUNS_PER_ACCOUNT_PER_DAY && made < options.runs; i += 1) {
        const runId = quoteAndAccept(deps, account.key, `bulk-${made}`);
        firstRun ||= runId;
        account.made += 1;
        made += 1;
      }
    }
    // Lets every run of this round end, and writes the journal out (a batch per round).
    await sim.advance({ seconds: ROUND_SECONDS });
    await deps.store.flush();
  }
  const buyers: Buyer[] = [];
  for (let i = 0; i < options.buyers; i += 1) {
    const { accountId, keyId, secret } = fundedBuyer(deps, `buyer ${i}`);
    buyers.push({ accountId, keyId, secret });
  }
  await sim.close();
  return {
    storePath,
    runs: made,
    buyers,
    reader: { secret: bulk[0].secret, runId: firstRun },
    buildMs: performance.now() - started,
    storeBytes: await storeBytes(storePath),
  };
}

async function storeBytes(storePath: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dirname(storePath))) if (name.startsWith(basename(storePath))) total += (await stat(join(dirname(storePath), name))).size;
  return total;
}
