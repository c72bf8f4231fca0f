import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Shared helpers of the foundation suite (not a test file). */

/** The instant a new frozen store starts at. */
export const EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');
export const DAY_S = 86_400;
export const DAY_MS = DAY_S * 1000;

export const UNAUTHENTICATED = { error: { code: 'request_rejected', message: 'A valid, active API key is required.' } };
export const KEY_NOT_ACCEPTED = { error: { code: 'request_rejected', message: 'API keys are not accepted for this route.' } };
export const MISSING_SCOPE = { error: { code: 'request_rejected', message: 'This API key does not have the scope required for this route.' } };

/** Every field of the spec 2.3 key object. */
export const KEY_FIELDS = [
  'id',
  'name',
  'prefix',
  'last4',
  'scopes',
  'profile',
  'assetId',
  'listingIds',
  'spendLimitAtomic',
  'spendUsedAtomic',
  'remainingSpendAtomic',
  'rateLimitPerMinute',
  'requestsLast24h',
  'createdAt',
  'expiresAt',
  'lastUsedAt',
  'revokedAt',
  'status',
];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Temporary directories made by a test file, removed by `removeTempDirs`. */
const made: string[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-foundation-'));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** The snapshot and journal bytes of a store (the journal as '' when absent). */
export async function storeFiles(storePath: string): Promise<{ snapshot: Buffer; journal: Buffer }> {
  const snapshot = await readFile(storePath);
  let journal: Buffer;
  try {
    journal = await readFile(`${storePath}.journal`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    journal = Buffer.alloc(0);
  }
  return { snapshot, journal };
}

export { waitFor } from '../helpers/wait.ts';

export async function createAccount(sim: TestSimulator, type: 'solana' | 'evm', label?: string): Promise<string> {
  const response = await sim.json({ method: 'POST', url: '/sim/accounts', body: label === undefined ? { type } : { type, label } });
  expect(response.status).toBe(201);
  return response.body.account.id as string;
}

export async function createKey(sim: TestSimulator, accountId: string, body: Record<string, unknown>): Promise<{ key: any; secret: string }> {
  const response = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/keys`, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export async function clockNow(sim: TestSimulator): Promise<string> {
  const response = await sim.json({ url: '/sim/clock' });
  expect(response.status).toBe(200);
  return response.body.now as string;
}

export async function advance(sim: TestSimulator, body: Record<string, unknown>): Promise<{ now: string; processed: Array<{ kind: string; ref: string; at: string }> }> {
  const response = await sim.json({ method: 'POST', url: '/sim/clock/advance', body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/**
 * A `start` for one test file: each simulator it starts is destroyed, and the
 * temporary directories removed, after every test.
 */
export function simulatorsPerTest(): (options?: Parameters<typeof startSimulator>[0]) => Promise<TestSimulator> {
  const running: TestSimulator[] = [];
  afterEach(async () => {
    for (const sim of running.splice(0)) await sim.destroy();
    await removeTempDirs();
  });
  return async (options = {}) => {
    const sim = await startSimulator(options);
    running.push(sim);
    return sim;
  };
}
