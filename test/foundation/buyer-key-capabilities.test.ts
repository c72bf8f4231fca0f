import { describe, expect, it } from 'vitest';
import { startSimulator } from '../helpers/simulator.ts';
import { advance, createAccount, createKey, KEY_FIELDS, tempDir, UUID, simulatorsPerTest } from './support.ts';

const start = simulatorsPerTest();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const AMOUNT = /^(0|[1-9][0-9]*)$/;

describe('GET /v1/buyer/key', () => {
  it('returns every field of spec 2.3, typed as the spec says, for each demo key', async () => {
    const sim = await start();
    const expected = {
      solana_sol: { assetId: 'solana:mainnet-beta/native', spendLimitAtomic: '5000000000' },
      solana_usdc: { assetId: 'solana:mainnet-beta/spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', spendLimitAtomic: '250000000' },
      local_custody: { assetId: 'eip155:4663/native', spendLimitAtomic: '1000000000000000000' },
    } as Record<string, { assetId: string; spendLimitAtomic: string }>;
    for (const demo of sim.demo) {
      const response = await sim.json({ url: '/v1/buyer/key', key: demo.secret });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['key']);
      const key = response.body.key;
      expect(Object.keys(key).sort()).toEqual([...KEY_FIELDS].sort());
      expect(key.id).toBe(demo.keyId);
      expect(key.id).toMatch(UUID);
      expect(key.name).toBe(`demo ${demo.profile}`);
      expect(key.profile).toBe(demo.profile);
      if (expected[demo.profile]) expect(key).toMatchObject(expected[demo.profile]);
      expect(key.spendLimitAtomic).toMatch(AMOUNT);
      expect(key.spendUsedAtomic).toBe('0');
      expect(key.remainingSpendAtomic).toBe(key.spendLimitAtomic);
      expect(key.listingIds).toBeNull();
      expect(key.rateLimitPerMinute).toBe(60);
      expect(key.requestsLast24h).toBe(1);
      expect(key.createdAt).toBe('2026-01-01T00:00:00.000Z');
      expect(key.expiresAt).toBe('2026-04-01T00:00:00.000Z'); // 90 days
      expect(key.lastUsedAt).toBe('2026-01-01T00:00:00.000Z');
      expect(key.revokedAt).toBeNull();
      expect(key.status).toBe('active');
      expect(key.scopes).toContain('catalog:read');
      expect(key.scopes.includes('monitors:read')).toBe(demo.profile === 'local_custody');
      for (const field of ['createdAt', 'expiresAt', 'lastUsedAt']) expect(key[field]).toMatch(ISO);
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('shows the listing restriction and settings the key was created with', async () => {
    const sim = await start({ demo: false });
    const account = await createAccount(sim, 'evm');
    const listingIds = sim.sim.deps.store.all('listings').slice(0, 2).map((l) => l.id);
    const { secret, key: created } = await createKey(sim, account, {
      profile: 'local_custody',
      spendLimitAtomic: '123456789012345678901234567890',
      name: 'restricted',
      listingIds,
      rateLimitPerMinute: 7,
      expiresInDays: 3,
      scopes: ['runs:read', 'monitors:read'],
    });
    const { body } = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(body.key).toMatchObject({
      id: created.id,
      name: 'restricted',
      listingIds,
      rateLimitPerMinute: 7,
      spendLimitAtomic: '123456789012345678901234567890',
      spendUsedAtomic: '0',
      remainingSpendAtomic: '123456789012345678901234567890',
      scopes: ['runs:read', 'monitors:read'],
      expiresAt: '2026-01-04T00:00:00.000Z',
    });
  });

  it('counts requests in requestsLast24h (this one included) and sets lastUsedAt; both survive a restart', async () => {
    const dir = await tempDir();
    const first = await startSimulator({ dir });
    const secret = first.secret('solana_usdc');
    const other = first.secret('solana_sol');
    for (let i = 1; i <= 3; i += 1) {
      const { body } = await first.json({ url: '/v1/buyer/key', key: secret });
      expect(body.key.requestsLast24h).toBe(i);
    }
    // Other keys' requests and refused ones do not count; other keyed routes do.
    await first.json({ url: '/v1/buyer/key', key: other });
    await first.json({ url: '/v1/capabilities', key: secret });
    await advance(first, { seconds: 3600 });
    const later = await first.json({ url: '/v1/buyer/key', key: secret });
    expect(later.body.key.requestsLast24h).toBe(5);
    expect(later.body.key.lastUsedAt).toBe('2026-01-01T01:00:00.000Z');
    await first.close();

    const second = await start({ dir });
    const afterRestart = await second.json({ url: '/v1/buyer/key', key: secret });
    expect(afterRestart.body.key.requestsLast24h).toBe(6);

    // 24 hours after the first requests, only the later ones count.
    await advance(second, { to: '2026-01-02T00:30:00.000Z' });
    const nextDay = await second.json({ url: '/v1/buyer/key', key: secret });
    expect(nextDay.body.key.requestsLast24h).toBe(3);
    expect(nextDay.body.key.lastUsedAt).toBe('2026-01-02T00:30:00.000Z');
    await advance(second, { seconds: 2 * 86_400 });
    expect((await second.json({ url: '/v1/buyer/key', key: secret })).body.key.requestsLast24h).toBe(1);
  });

  it('answers no key view without a valid key', async () => {
    const sim = await start();
    const response = await sim.json({ url: '/v1/buyer/key' });
    expect(response.status).toBe(401);
    expect(response.body.key).toBeUndefined();
  });
});

describe('GET /v1/capabilities', () => {
  it('answers with or without a valid key and publishes queue.platformQueueBound', async () => {
    const sim = await start();
    const anonymous = await sim.json({ url: '/v1/capabilities' });
    const keyed = await sim.json({ url: '/v1/capabilities', key: sim.secret('local_custody') });
    expect(anonymous.status).toBe(200);
    expect(keyed.status).toBe(200);
    expect(keyed.body).toEqual(anonymous.body);
    const body = anonymous.body;
    expect(body.environment).toBe('test');
    expect(body.apiVersion).toBe('1.2.0-local');
    expect(Number.isInteger(body.queue.platformQueueBound)).toBe(true);
    expect(body.queue.platformQueueBound).toBeGreaterThan(0);
    expect(body.queue.queuedRuns).toBe(0);
    expect(body.limits).toMatchObject({ requestBodyBytes: 262144, requestsPerClientAddressPerMinute: 120, rateLimitsEnforced: false });
    expect(body.profiles.map((p: { profile: string }) => p.profile).sort()).toEqual(['local_custody', 'sim', 'solana_sol', 'solana_usdc']);
    expect(body.profiles.every((p: { available: boolean }) => p.available)).toBe(true);
  });

  it('tells the production environment and the sim profile being unavailable there', async () => {
    const sim = await start({ env: 'production', limits: true });
    const { status, body } = await sim.json({ url: '/v1/capabilities' });
    expect(status).toBe(200);
    expect(body.environment).toBe('production');
    expect(body.limits.rateLimitsEnforced).toBe(true);
    expect(body.profiles.find((p: { profile: string }) => p.profile === 'sim').available).toBe(false);
    expect(body.profiles.find((p: { profile: string }) => p.profile === 'solana_sol').available).toBe(true);
  });
});
