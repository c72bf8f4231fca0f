import { describe, expect, it } from 'vitest';
import { advance, cleanupAfterEach, createMonitor, ethKey, monitorBody, start, UUID } from './support.ts';

/** Spec 4.10 rules 1–4, owner creation, limits, key restrictions and the list order. */

cleanupAfterEach();

const MISSING_SCOPE = { error: { code: 'request_rejected', message: 'This API key does not have the scope required for this route.' } };

describe('POST /v1/monitors with an API key', () => {
  it('201 shows the monitor and, with a webhookUrl, the webhookSecret once; the same key and body replay 200 with replayed true and webhookSecret null', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const body = monitorBody({ webhookUrl: 'https://hooks.example.com/monitor', name: 'With webhook' });
    const first = await sim.json({ method: 'POST', url: '/v1/monitors', key, body });
    expect(first.status).toBe(201);
    expect(first.body.replayed).toBe(false);
    expect(first.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(first.body.monitor).toMatchObject({
      id: expect.stringMatching(UUID),
      status: 'active',
      name: 'With webhook',
      chain: 'base',
      statusReason: null,
      endsAt: '2026-01-01T01:00:00.000Z',
      tickBudget: 10_000,
      ticksUsed: 0,
      rpcBudget: 100_000,
      rpcUsed: 0,
      webhook: { url: 'https://hooks.example.com/monitor', signature: expect.any(String) },
    });
    expect(first.headers['cache-control']).toBe('no-store');

    // Later (the clock moved), the same request is an idempotent replay.
    await advance(sim, { seconds: 30 });
    const replay = await sim.json({ method: 'POST', url: '/v1/monitors', key, body });
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.webhookSecret).toBeNull();
    expect(replay.body.monitor.id).toBe(first.body.monitor.id);
    expect(replay.body.monitor.createdAt).toBe(first.body.monitor.createdAt);
    expect(sim.sim.deps.store.count('monitors')).toBe(1);

    // The secret is never shown again anywhere.
    const listed = await sim.json({ url: '/v1/monitors', key });
    expect(JSON.stringify(listed.body)).not.toContain(first.body.webhookSecret);
    const detailed = await sim.json({ url: `/v1/monitors/${first.body.monitor.id}`, key });
    expect(JSON.stringify(detailed.body)).not.toContain(first.body.webhookSecret);
  });

  it('without a webhookUrl the webhookSecret is null and webhook is null', async () => {
    const sim = await start();
    const response = await sim.json({ method: 'POST', url: '/v1/monitors', key: ethKey(sim).key, body: monitorBody() });
    expect(response.status).toBe(201);
    expect(response.body.webhookSecret).toBeNull();
    expect(response.body.monitor.webhook).toBeNull();
  });

  it('the same idempotency key with a different body is 409 and creates nothing', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const body = monitorBody();
    expect((await sim.json({ method: 'POST', url: '/v1/monitors', key, body })).status).toBe(201);
    const conflict = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: { ...body, name: 'Another name' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    expect(sim.sim.deps.store.count('monitors')).toBe(1);
    // The key's reuse through the owner's own route is the same account, so the same conflict.
    const owner = await sim.json({ method: 'POST', url: `/sim/accounts/${ethKey(sim).accountId}/monitors`, body: { ...body, tickBudget: 5 } });
    expect(owner.status).toBe(409);
  });

  it.each([
    [{ paymentProfile: 'sim' }],
    [{ paymentProfile: 'local_custody' }],
    [{ spendCapAtomic: '1000' }],
    [{ paymentProfile: 'none', spendCapAtomic: '1' }],
  ])('rule 1: a key with %j is refused with 403', async (extra) => {
    const sim = await start();
    const response = await sim.json({ method: 'POST', url: '/v1/monitors', key: ethKey(sim).key, body: monitorBody(extra) });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('request_rejected');
    expect(sim.sim.deps.store.count('monitors')).toBe(0);
  });

  it('rule 2: in production a key cannot create a monitor in any form', async () => {
    const sim = await start({ env: 'production' });
    const { key } = ethKey(sim);
    for (const extra of [{}, { paymentProfile: 'none' }, { paymentProfile: 'local_custody' }, { spendCapAtomic: '5' }, { chain: 'ethereum', windowBlocks: 25 }]) {
      const response = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody(extra) });
      expect(response.status, JSON.stringify(extra)).toBe(403);
      expect(response.body.error.code).toBe('request_rejected');
    }
    expect(sim.sim.deps.store.count('monitors')).toBe(0);
    // Reads still work with the key.
    expect((await sim.json({ url: '/v1/monitors', key })).body).toEqual({ monitors: [] });
  });

  it('rule 3: in production a webhookUrl is refused with 403 saying external delivery is not enabled and to use in-app notifications', async () => {
    const sim = await start({ env: 'production' });
    const { key, accountId } = ethKey(sim);
    const body = monitorBody({ webhookUrl: 'https://hooks.example.com/x' });
    const viaKey = await sim.json({ method: 'POST', url: '/v1/monitors', key, body });
    expect(viaKey.status).toBe(403);
    expect(viaKey.body.error.message).toMatch(/external destinations is not enabled/i);
    expect(viaKey.body.error.message).toMatch(/in-app notifications/i);
    const viaOwner = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/monitors`, body });
    expect(viaOwner.status).toBe(403);
    expect(viaOwner.body.error.message).toBe(viaKey.body.error.message);
    expect(sim.sim.deps.store.count('monitors')).toBe(0);
  });

  it('SOL and USDC keys are refused on every monitor and notification route', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key);
    const routes = [
      { method: 'GET', url: '/v1/monitors' },
      { method: 'POST', url: '/v1/monitors', body: monitorBody() },
      { method: 'GET', url: `/v1/monitors/${monitor.id}` },
      { method: 'POST', url: `/v1/monitors/${monitor.id}/stop` },
      { method: 'GET', url: '/v1/notifications' },
      { method: 'POST', url: `/v1/notifications/${monitor.id}/ack` },
    ];
    for (const profile of ['solana_sol', 'solana_usdc'] as const) {
      for (const route of routes) {
        const response = await sim.json({ ...route, key: sim.secret(profile) });
        expect(response.status, `${profile} ${route.method} ${route.url}`).toBe(403);
        expect(response.body).toEqual(MISSING_SCOPE);
      }
    }
    // Nothing changed: the monitor is still active and the only one.
    expect((await sim.json({ url: `/v1/monitors/${monitor.id}`, key })).body.monitor.status).toBe('active');
    expect(sim.sim.deps.store.count('monitors')).toBe(1);
  });

  it('a SOL or USDC key cannot be given monitor scopes', async () => {
    const sim = await start();
    const solanaAccount = sim.demo.find((d) => d.profile === 'solana_sol')!.accountId;
    for (const profile of ['solana_sol', 'solana_usdc']) {
      const response = await sim.json({ method: 'POST', url: `/sim/accounts/${solanaAccount}/keys`, body: { profile, spendLimitAtomic: '1', scopes: ['monitors:read'] } });
      expect(response.status).toBe(400);
    }
  });

  it('another account cannot see, stop or read the monitor (404)', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key);
    const account = (await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } })).body.account.id;
    const other = (await sim.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1', scopes: ['monitors:read', 'monitors:write'] } })).body.secret;
    expect((await sim.json({ url: `/v1/monitors/${monitor.id}`, key: other })).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: `/v1/monitors/${monitor.id}/stop`, key: other })).status).toBe(404);
    expect((await sim.json({ url: '/v1/monitors', key: other })).body.monitors).toEqual([]);
    expect((await sim.json({ url: `/v1/monitors/${monitor.id}`, key })).body.monitor.status).toBe('active');
  });

  it('a key with monitors:read only cannot create or stop (403)', async () => {
    const sim = await start();
    const { key, accountId } = ethKey(sim);
    const monitor = await createMonitor(sim, key);
    const reader = (await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1', scopes: ['monitors:read'] } })).body.secret;
    expect((await sim.json({ method: 'POST', url: '/v1/monitors', key: reader, body: monitorBody() })).body).toEqual(MISSING_SCOPE);
    expect((await sim.json({ method: 'POST', url: `/v1/monitors/${monitor.id}/stop`, key: reader })).body).toEqual(MISSING_SCOPE);
    expect((await sim.json({ url: `/v1/monitors/${monitor.id}`, key: reader })).status).toBe(200);
  });
});

describe('POST /sim/accounts/{id}/monitors (the signed-in owner)', () => {
  it.each(['test', 'production'] as const)('with paymentProfile and spendCapAtomic is created (201) in the %s environment', async (env) => {
    const sim = await start({ env });
    const { key, accountId } = ethKey(sim);
    const body = monitorBody({ paymentProfile: 'local_custody', spendCapAtomic: '5000000000000000', consentHash: 'c'.repeat(64) });
    const response = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/monitors`, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.replayed).toBe(false);
    expect(response.body.monitor).toMatchObject({ status: 'active', paymentProfile: 'local_custody' });
    // The key of the same account reads it.
    const read = await sim.json({ url: `/v1/monitors/${response.body.monitor.id}`, key });
    expect(read.status).toBe(200);
    expect(read.body.monitor.id).toBe(response.body.monitor.id);
    // Replay of the owner's request.
    const replay = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/monitors`, body });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ replayed: true, webhookSecret: null });
  });

  it("the owner may use paymentProfile 'sim' in the test environment", async () => {
    const sim = await start();
    const response = await sim.json({ method: 'POST', url: `/sim/accounts/${ethKey(sim).accountId}/monitors`, body: monitorBody({ paymentProfile: 'sim', spendCapAtomic: '1' }) });
    expect(response.status).toBe(201);
    expect(response.body.monitor.paymentProfile).toBe('sim');
  });

  it('an unknown account is 404', async () => {
    const sim = await start();
    const response = await sim.json({ method: 'POST', url: '/sim/accounts/00000000-0000-4000-8000-000000000000/monitors', body: monitorBody() });
    expect(response.status).toBe(404);
  });
});

describe('limits', () => {
  it('5 active monitors per owner: the 6th is refused until one ends', async () => {
    const sim = await start();
    const { key, accountId } = ethKey(sim);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await createMonitor(sim, key)).id);
    for (let i = 0; i < 2; i += 1) {
      const owner = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/monitors`, body: monitorBody() });
      expect(owner.status).toBe(201);
      ids.push(owner.body.monitor.id);
    }
    const sixth = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.message).toMatch(/5 active monitors/);
    const sixthOwner = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/monitors`, body: monitorBody() });
    expect(sixthOwner.status).toBe(429);
    expect(sim.sim.deps.store.count('monitors')).toBe(5);

    // Stopping one frees a place.
    expect((await sim.json({ method: 'POST', url: `/v1/monitors/${ids[0]}/stop`, key })).status).toBe(200);
    expect((await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() })).status).toBe(201);
    expect((await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() })).status).toBe(429);

    // Another account has its own five.
    const account = (await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } })).body.account.id;
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${account}/monitors`, body: monitorBody() })).status).toBe(201);
  });

  it('an idempotent replay answers even when five monitors are active', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const body = monitorBody();
    const first = await sim.json({ method: 'POST', url: '/v1/monitors', key, body });
    for (let i = 0; i < 4; i += 1) await createMonitor(sim, key);
    const replay = await sim.json({ method: 'POST', url: '/v1/monitors', key, body });
    expect(replay.status).toBe(200);
    expect(replay.body.monitor.id).toBe(first.body.monitor.id);
  });

  it('with limits on, 10 creations per minute: the 11th is 429 with Retry-After, and a minute later creation works again', async () => {
    const sim = await start({ limits: true });
    const { key } = ethKey(sim);
    for (let i = 0; i < 10; i += 1) {
      const created = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() });
      expect(created.status, `creation ${i + 1}`).toBe(201);
      // Stop it at once so the five-active limit never answers instead.
      expect((await sim.json({ method: 'POST', url: `/v1/monitors/${created.body.monitor.id}/stop`, key })).status).toBe(200);
    }
    const eleventh = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ error: { code: 'request_rejected', message: 'Too many requests. Try again shortly.' } });
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sim.sim.deps.store.count('monitors')).toBe(10);

    await advance(sim, { seconds: retryAfter });
    expect((await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() })).status).toBe(201);
  });

  it('with limits off, more than 10 creations a minute are allowed', async () => {
    const sim = await start({ limits: false });
    const { key } = ethKey(sim);
    for (let i = 0; i < 12; i += 1) {
      const created = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() });
      expect(created.status).toBe(201);
      await sim.json({ method: 'POST', url: `/v1/monitors/${created.body.monitor.id}/stop`, key });
    }
  });
});

describe('GET /v1/monitors', () => {
  it('lists newest first, including monitors created at the same instant', async () => {
    const sim = await start();
    const { key, accountId } = ethKey(sim);
    const a = await createMonitor(sim, key, { name: 'a' });
    await advance(sim, { seconds: 1 });
    const b = await createMonitor(sim, key, { name: 'b' });
    const c = (await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/monitors`, body: monitorBody({ name: 'c' }) })).body.monitor;
    await advance(sim, { seconds: 1 });
    const d = await createMonitor(sim, key, { name: 'd' });
    const list = await sim.json({ url: '/v1/monitors', key });
    expect(list.status).toBe(200);
    expect(list.body.monitors.map((m: { name: string }) => m.name)).toEqual(['d', 'c', 'b', 'a']);
    expect(list.body.monitors.map((m: { id: string }) => m.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(list.headers['cache-control']).toBe('no-store');
  });

  it('an unknown query parameter is refused', async () => {
    const sim = await start();
    expect((await sim.json({ url: '/v1/monitors?status=active', key: ethKey(sim).key })).status).toBe(400);
  });

  it('an unknown monitor is 404 and a malformed id 400', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    expect((await sim.json({ url: '/v1/monitors/00000000-0000-4000-8000-000000000000', key })).status).toBe(404);
    expect((await sim.json({ url: '/v1/monitors/nope', key })).status).toBe(400);
  });
});
