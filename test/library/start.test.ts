import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, startUnderstudy, type Understudy } from '../../src/library/index.ts';

const started: Understudy[] = [];
const start = async (options?: Parameters<typeof startUnderstudy>[0]) => {
  const understudy = await startUnderstudy(options);
  started.push(understudy);
  return understudy;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.stop()));
});

const balanceOf = async (u: Understudy, accountId: string, profile: string) =>
  (await u.control.account(accountId)).balances.find((b) => b.profile === profile)?.availableAtomic;

/** The status an API call was refused with (ApiError), or 'answered'. */
const statusOf = async (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (error: unknown) => (error instanceof ApiError ? error.status : `threw ${String(error)}`),
  );

describe('startUnderstudy', () => {
  it('answers the address, the demo accounts and a working key per profile, each on its account', async () => {
    const u = await start();
    expect(u.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(u.controlUrl).toBe(`${u.url}/sim`);
    expect(Object.keys(u.keys).sort()).toEqual(['local_custody', 'sim', 'solana_sol', 'solana_usdc']);
    const accountOf = { local_custody: u.accounts.evm.id, sim: u.accounts.evm.id, solana_sol: u.accounts.solana.id, solana_usdc: u.accounts.solana.id };
    for (const [profile, secret] of Object.entries(u.keys)) {
      const key = await u.client(secret).v1.getKey();
      expect(key.profile).toBe(profile);
      expect((await u.control.keys(accountOf[profile as keyof typeof accountOf])).map((k) => k.id)).toContain(key.id);
    }
    expect((await u.v1.getKey()).profile).toBe('local_custody');
    const catalog = await fetch(`${u.url}/v1/openapi.json`);
    expect(catalog.status).toBe(200);
  });

  it('drives the simulated clock: frozen by default, advance(seconds), to(iso), next()', async () => {
    const u = await start({ seed: 3 });
    const t0 = u.clock.now();
    expect((await u.control.clock()).now).toBe(t0);
    expect((await u.control.clock()).mode).toBe('frozen');
    const later = await u.clock.advance(90);
    expect(Date.parse(later.now) - Date.parse(t0)).toBe(90_000);
    expect(u.clock.now()).toBe(later.now);
    const target = new Date(Date.parse(t0) + 3_600_000).toISOString();
    expect((await u.clock.to(target)).now).toBe(target);
    const next = await u.clock.next();
    expect(Date.parse(next.now)).toBeGreaterThanOrEqual(Date.parse(target));
  });

  it('reset() returns to the starting state: balances, clock, the same keys, new keys gone, the same ids generated again', async () => {
    const u = await start();
    const t0 = u.clock.now();
    const startBalance = await balanceOf(u, u.accounts.evm.id, 'sim');
    const keyId = (await u.v1.getKey()).id;
    const first = await u.control.createAccount({ type: 'evm', label: 'made by a test' });
    await u.control.deposit(u.accounts.evm.id, { profile: 'sim', amountAtomic: '12345' });
    const made = await u.control.createKey(u.accounts.evm.id, { profile: 'sim', spendLimitAtomic: '1000' });
    await u.clock.advance(3600);
    expect(await balanceOf(u, u.accounts.evm.id, 'sim')).not.toBe(startBalance);

    await u.reset();
    expect(u.clock.now()).toBe(t0);
    expect((await u.control.clock()).now).toBe(t0);
    expect(await balanceOf(u, u.accounts.evm.id, 'sim')).toBe(startBalance);
    expect((await u.v1.getKey()).id).toBe(keyId);
    expect(await statusOf(u.client(made.secret).v1.getKey())).toBe(401);
    expect((await u.control.accounts()).map((a) => a.id)).not.toContain(first.id);
    // The generator is back where it was: the same calls make the same ids.
    expect((await u.control.createAccount({ type: 'evm', label: 'made by a test' })).id).toBe(first.id);

    await u.reset();
    expect((await u.control.accounts()).map((a) => a.id).sort()).toEqual([u.accounts.evm.id, u.accounts.solana.id].sort());
  });

  it('reset() leaves the temporary store’s files to its next checkpoint, which writes the reset state', async () => {
    const u = await start();
    const collections = async () => ((await (await fetch(`${u.controlUrl}/snapshot`)).json()) as { store: { collections: unknown } }).store.collections;
    const atStart = await collections();
    // Ledger entries are archived rows (sim/store/layout.ts): the demo's are in the archive file already.
    await u.control.deposit(u.accounts.evm.id, { profile: 'sim', amountAtomic: '12345' });
    await u.control.createAccount({ type: 'evm', label: 'made by a test' });
    await u.reset();
    expect(await collections()).toEqual(atStart);
    expect((await fetch(`${u.controlUrl}/store/checkpoint`, { method: 'POST' })).status).toBe(200);
    expect(await collections()).toEqual(atStart);
    await u.control.deposit(u.accounts.evm.id, { profile: 'sim', amountAtomic: '1' });
    await u.reset();
    expect(await collections()).toEqual(atStart);
  });

  it('reset() hands the store the same starting rows each time: a purchase after each of several resets runs the same and leaves them as they were', async () => {
    const u = await start();
    const collections = async () => ((await (await fetch(`${u.controlUrl}/snapshot`)).json()) as { store: { collections: unknown } }).store.collections;
    const atStart = await collections();
    const purchase = async () => {
      const listing = (await u.v1.listAgents({ q: 'Token Research Agent', limit: 10 })).agents.find((a) => a.name === 'Token Research Agent')!;
      const quote = await u.v1.createQuote('custody', { listingId: listing.listingId, input: { chain: 'ethereum', address: `0x${'ab'.repeat(20)}` } });
      const accepted = await u.v1.acceptQuote('custody', quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey: 'reset-purchase-1' });
      await u.clock.advance(600);
      const billing = await u.v1.billing('custody', accepted.run.id);
      return { quote: quote.id, run: accepted.run.id, status: (await u.v1.getRun(accepted.run.id)).run.status, billing: billing.status, charged: billing.settlement?.chargedAtomic };
    };
    const first = await purchase();
    expect(first.billing).toBe('settled');
    for (let i = 0; i < 3; i += 1) {
      await u.reset();
      expect(await collections()).toEqual(atStart);
      // The rows the store was handed are the same objects each time; a purchase that changed one in place would differ here or fail.
      expect(await purchase()).toEqual(first);
    }
  });

  it('grades per test: reset() empties the conduct report and restarts the chaos plan, as POST /sim/reset does', async () => {
    const u = await start({ chaos: { name: 'first-read-fails', plan: [{ group: 'read', nth: 1, fault: 'internal-error' }] } });
    expect(await statusOf(u.v1.getRun('00000000-0000-4000-8000-000000000000'))).toBe(404);
    const graded = await u.report();
    expect(graded.rules.find((r) => r.id === 'get-retried-with-backoff')?.verdict).toBe('pass');
    expect((await u.control.chaos()).decided).toBe(1);
    await u.reset();
    expect((await u.report()).rules.every((r) => r.verdict === 'not-exercised')).toBe(true);
    expect((await u.control.chaos())).toMatchObject({ profile: { name: 'first-read-fails' }, decided: 0 });
  });

  it('runs many simulators side by side, each with its own store and state', async () => {
    const all = await Promise.all([start(), start(), start()]);
    expect(new Set(all.map((u) => u.url)).size).toBe(3);
    expect(new Set(all.map((u) => u.storePath)).size).toBe(3);
    const before = await balanceOf(all[1], all[1].accounts.evm.id, 'sim');
    await all[0].control.deposit(all[0].accounts.evm.id, { profile: 'sim', amountAtomic: '777' });
    await all[2].clock.advance(600);
    expect(BigInt((await balanceOf(all[0], all[0].accounts.evm.id, 'sim'))!) - BigInt(before!)).toBe(777n);
    expect(await balanceOf(all[1], all[1].accounts.evm.id, 'sim')).toBe(before);
    expect(all[0].clock.now()).toBe(all[1].clock.now());
    expect(all[2].clock.now()).not.toBe(all[1].clock.now());
    // The same seed gives the same demo data, whichever simulator it is in.
    expect(all[1].keys).toEqual(all[0].keys);
    expect((await start({ seed: 2 })).keys.local_custody).not.toBe(all[0].keys.local_custody);
  });

  it('removes its temporary store at stop(); a store it was given stays, and is not started over', async () => {
    const u = await startUnderstudy();
    expect(existsSync(u.storePath)).toBe(true);
    await u.stop();
    expect(existsSync(u.storePath)).toBe(false);
    await u.stop();

    const dir = await mkdtemp(join(tmpdir(), 'understudy-lib-test-'));
    try {
      const store = join(dir, 'store.json');
      const kept = await startUnderstudy({ store });
      expect(kept.storePath).toBe(store);
      await kept.stop();
      expect(existsSync(store)).toBe(true);
      await expect(startUnderstudy({ store })).rejects.toThrow(/already holds a store/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses reset() after stop() with a clear error, and leaves no file or socket open', async () => {
    const openHandles = () => process.getActiveResourcesInfo().filter((r) => r === 'FileHandle' || r === 'TCPServerWrap').length;
    const before = openHandles();
    const u = await startUnderstudy();
    await u.stop();
    await expect(u.reset()).rejects.toThrow('understudy: reset() after stop(): this simulator has stopped; start a new one with startUnderstudy().');
    expect(openHandles()).toBe(before);
  });

  it('takes serve’s options: env production has no sim key, limits, a control token on /sim', async () => {
    const production = await start({ env: 'production', profile: 'solana_usdc' });
    expect(production.keys.sim).toBeUndefined();
    expect(production.keys.local_custody).toMatch(/^svc_live_/);
    expect((await production.v1.getKey()).profile).toBe('solana_usdc');

    const guarded = await start({ controlToken: 'tok-123', limits: false });
    expect((await guarded.control.clock()).mode).toBe('frozen');
    const bare = await fetch(`${guarded.controlUrl}/clock`);
    expect(bare.status).toBe(401);
  });
});
