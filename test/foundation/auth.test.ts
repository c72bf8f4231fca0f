import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../sim/domain/keys/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import {
  advance,
  createAccount,
  createKey,
  KEY_FIELDS,
  KEY_NOT_ACCEPTED,
  MISSING_SCOPE,
  UNAUTHENTICATED,
  UUID,
  simulatorsPerTest,
} from './support.ts';

const TEST_KEY = /^svc_test_[A-Za-z0-9_-]{43}$/;
const LIVE_KEY = /^svc_live_[A-Za-z0-9_-]{43}$/;
const BOTH_CREDENTIALS = { error: { code: 'request_rejected', message: 'Send either a session cookie or an API key, not both.' } };

const start = simulatorsPerTest();

describe('key format', () => {
  it('test environment keys are svc_test_ + 43 base64url characters; prefix and last4 identify them', async () => {
    const sim = await start();
    expect(sim.demo).toHaveLength(4);
    for (const { secret, keyId } of sim.demo) {
      expect(secret).toMatch(TEST_KEY);
      const { body } = await sim.json({ url: '/v1/buyer/key', key: secret });
      expect(body.key.id).toBe(keyId);
      expect(secret.startsWith(body.key.prefix)).toBe(true);
      expect(body.key.prefix.startsWith('svc_test_')).toBe(true);
      expect(body.key.last4).toBe(secret.slice(-4));
      expect(JSON.stringify(body)).not.toContain(secret);
    }
  });

  it('production keys are svc_live_; a well-formed svc_test_ key is refused there (and the other way round)', async () => {
    const production = await start({ env: 'production' });
    const test = await start();
    expect(production.demo.map((d) => d.profile)).toEqual(['solana_sol', 'solana_usdc', 'local_custody']);
    for (const { secret } of production.demo) {
      expect(secret).toMatch(LIVE_KEY);
      expect((await production.json({ url: '/v1/buyer/key', key: secret })).status).toBe(200);
    }
    const liveShapedTest = 'svc_test_' + production.secret('solana_sol').slice('svc_live_'.length);
    const refused = await production.json({ url: '/v1/buyer/key', key: liveShapedTest });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(UNAUTHENTICATED);
    const testInProduction = await production.json({ url: '/v1/buyer/key', key: test.secret('solana_sol') });
    expect(testInProduction.status).toBe(401);
    const liveInTest = await test.json({ url: '/v1/buyer/key', key: production.secret('solana_sol') });
    expect(liveInTest.status).toBe(401);
    expect(liveInTest.body).toEqual(UNAUTHENTICATED);

    const account = await createAccount(production, 'evm');
    const created = await createKey(production, account, { profile: 'local_custody', spendLimitAtomic: '1' });
    expect(created.secret).toMatch(LIVE_KEY);
    const simProfile = await production.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'sim', spendLimitAtomic: '1' } });
    expect(simProfile.status).toBe(503);
  });
});

describe('one 401 for every bad key', () => {
  it('missing, unknown, malformed, expired and revoked keys all get the identical 401', async () => {
    const sim = await start();
    const account = await createAccount(sim, 'solana');
    const expiring = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', expiresInDays: 1 });
    const revoked = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', expiresInDays: 90 });
    expect((await sim.json({ method: 'POST', url: `/sim/keys/${revoked.key.id}/revoke` })).status).toBe(200);
    await advance(sim, { seconds: 86_400 });

    const valid = sim.secret('solana_sol');
    const cases: Array<[string, Record<string, string>]> = [
      ['missing', {}],
      ['unknown, well-formed', { authorization: `Bearer svc_test_${'A'.repeat(43)}` }],
      ['too short', { authorization: `Bearer ${valid.slice(0, -1)}` }],
      ['too long', { authorization: `Bearer ${valid}x` }],
      ['bad character', { authorization: `Bearer ${valid.slice(0, -1)}!` }],
      ['no prefix', { authorization: `Bearer ${valid.slice('svc_test_'.length)}` }],
      ['no scheme', { authorization: valid }],
      ['basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['two tokens', { authorization: `Bearer ${valid} ${valid}` }],
      ['expired', { authorization: `Bearer ${expiring.secret}` }],
      ['revoked', { authorization: `Bearer ${revoked.secret}` }],
    ];
    const bodies = new Set<string>();
    for (const [what, headers] of cases) {
      const response = await sim.request({ url: '/v1/buyer/key', headers });
      expect(response.statusCode, what).toBe(401);
      expect(JSON.parse(response.body), what).toEqual(UNAUTHENTICATED);
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
    // The valid key still works.
    expect((await sim.json({ url: '/v1/buyer/key', key: valid })).status).toBe(200);
  });

  it('a bad key on a route that also answers without a key is still refused', async () => {
    const sim = await start();
    expect((await sim.json({ url: '/v1/capabilities' })).status).toBe(200);
    const response = await sim.json({ url: '/v1/capabilities', key: `svc_test_${'B'.repeat(43)}` });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHENTICATED);
    expect((await sim.json({ url: '/v1/capabilities', key: sim.secret('sim') })).status).toBe(200);
  });
});

describe('scopes', () => {
  it("a key lacking a route's scope gets 403 with the scope message", async () => {
    // GET /v1/public/agents requires catalog:read when a key is sent (spec 5, rule 3).
    const sim = await start();
    const account = await createAccount(sim, 'solana');
    const without = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', scopes: ['runs:read', 'billing:read'] });
    const withScope = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', scopes: ['catalog:read'] });
    const refused = await sim.json({ url: '/v1/public/agents', key: without.secret });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(MISSING_SCOPE);
    expect((await sim.json({ url: '/v1/public/agents', key: withScope.secret })).status).toBe(200);
    // No key at all: the public catalog answers.
    expect((await sim.json({ url: '/v1/public/agents' })).status).toBe(200);
    // GET /v1/buyer/key needs no particular scope.
    expect((await sim.json({ url: '/v1/buyer/key', key: without.secret })).status).toBe(200);
  });
});

describe('one credential', () => {
  it('a session cookie and a bearer key together are 400, whatever the key', async () => {
    const sim = await start();
    const valid = sim.secret('solana_usdc');
    for (const [url, key] of [
      ['/v1/buyer/key', valid],
      ['/v1/buyer/key', `svc_test_${'C'.repeat(43)}`],
      ['/v1/capabilities', valid],
    ]) {
      for (const cookie of ['svc_session=abc', 'theme=dark; svc_session=abc']) {
        const response = await sim.json({ url, key, headers: { cookie } });
        expect(response.status, `${url} ${cookie}`).toBe(400);
        expect(response.body).toEqual(BOTH_CREDENTIALS);
      }
    }
    // Another cookie is not a session.
    expect((await sim.json({ url: '/v1/buyer/key', key: valid, headers: { cookie: 'theme=dark' } })).status).toBe(200);
  });
});

describe('routes that take no key', () => {
  it('an unknown /v1 route refuses a key with 401 and is 404 without one', async () => {
    const sim = await start();
    const key = sim.secret('local_custody');
    for (const [method, url] of [
      ['GET', '/v1/keys'],
      ['POST', '/v1/deposits'],
      ['GET', '/v1/runs'],
      ['POST', '/v1/buyer/key'],
      ['DELETE', '/v1/buyer/key'],
    ]) {
      const keyed = await sim.json({ method, url, key });
      expect(keyed.status, `${method} ${url}`).toBe(401);
      expect(keyed.body).toEqual(KEY_NOT_ACCEPTED);
      const bad = await sim.json({ method, url, key: 'not-a-key' });
      expect(bad.status, `${method} ${url} (bad key)`).toBe(401);
      expect(bad.body).toEqual(KEY_NOT_ACCEPTED);
      const anonymous = await sim.json({ method, url });
      expect(anonymous.status, `${method} ${url} (no key)`).toBe(404);
      expect(anonymous.body.error.code).toBe('not_found');
    }
  });
});

describe('keyed responses', () => {
  it('carry cache-control: no-store, success or failure', async () => {
    const sim = await start();
    const key = sim.secret('solana_sol');
    const cases = [
      { url: '/v1/buyer/key', key, status: 200 },
      { url: '/v1/capabilities', key, status: 200 },
      { url: '/v1/buyer/key?x=1', key, status: 400 },
      { url: '/v1/buyer/key', key: 'nope', status: 401 },
      { url: '/v1/keys', key, status: 401 },
      { url: '/v1/buyer/key', key, headers: { cookie: 'svc_session=1' }, status: 400 },
    ];
    for (const { status, ...request } of cases) {
      const response = await sim.request(request);
      expect(response.statusCode, request.url).toBe(status);
      expect(response.headers['cache-control'], request.url).toBe('no-store');
    }
  });
});

describe('request log', () => {
  it('records route template, method, time and status; never the secret, a query value or a path value', async () => {
    const sim = await start();
    const key = sim.secret('solana_sol');
    const keyId = sim.demo.find((d) => d.profile === 'solana_sol')!.keyId;
    await advance(sim, { seconds: 60 });
    await sim.request({ url: '/v1/buyer/key', key });
    await sim.request({ url: '/v1/buyer/key?token=QUERYVALUE123', key });
    await sim.request({ url: '/v1/capabilities?q=ANOTHERQUERYVALUE' });
    const runId = '7d9c2f4e-1b3a-4c5d-8e6f-0a1b2c3d4e5f';
    const run = await sim.request({ url: `/v1/runs/${runId}`, key });
    await sim.request({ url: '/v1/no-such/PATHVALUE456', key });
    await sim.request({ url: '/v1/buyer/key', key: 'svc_test_wrong' });
    const { status, body } = await sim.json({ url: '/sim/requests' });
    expect(status).toBe(200);
    const at = '2026-01-01T00:01:00.000Z';
    expect(body.requests).toEqual([
      { at, method: 'GET', route: '/v1/buyer/key', status: 200, keyId },
      { at, method: 'GET', route: '/v1/buyer/key', status: 400, keyId },
      { at, method: 'GET', route: '/v1/capabilities', status: 400, keyId: null },
      // A path parameter is recorded as the route template, never its value.
      { at, method: 'GET', route: '/v1/runs/:id', status: run.statusCode, keyId },
      { at, method: 'GET', route: expect.not.stringContaining('PATHVALUE'), status: 401, keyId: null },
      { at, method: 'GET', route: '/v1/buyer/key', status: 401, keyId: null },
    ]);
    const text = JSON.stringify(body);
    for (const secretish of [key, key.slice(9), 'QUERYVALUE123', 'ANOTHERQUERYVALUE', runId, 'PATHVALUE456', 'svc_test_wrong']) expect(text).not.toContain(secretish);
    // /sim calls are not part of the /v1 request log.
    expect(text).not.toContain('/sim/');
  });
});

describe('key creation rules (POST /sim/accounts/{id}/keys)', () => {
  let sim: TestSimulator;
  let solana: string;
  let evm: string;
  beforeAll(async () => {
    sim = await startSimulator({ demo: false });
    solana = await createAccount(sim, 'solana');
    evm = await createAccount(sim, 'evm');
  });
  afterAll(async () => {
    await sim.destroy();
  });

  const post = (account: string, body: Record<string, unknown>) => sim.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body });

  it('creates a key with the defaults of spec 5 and the full 2.3 object', async () => {
    const response = await post(solana, { profile: 'solana_sol', spendLimitAtomic: '1000' });
    expect(response.status).toBe(201);
    const { key, secret } = response.body;
    expect(secret).toMatch(TEST_KEY);
    expect(Object.keys(key).sort()).toEqual([...KEY_FIELDS].sort());
    expect(key).toMatchObject({
      name: null,
      scopes: ['catalog:read', 'quotes:write', 'runs:read', 'billing:read'],
      profile: 'solana_sol',
      assetId: 'solana:mainnet-beta/native',
      listingIds: null,
      spendLimitAtomic: '1000',
      spendUsedAtomic: '0',
      remainingSpendAtomic: '1000',
      rateLimitPerMinute: 60,
      requestsLast24h: 0,
      lastUsedAt: null,
      revokedAt: null,
      status: 'active',
    });
    expect(key.id).toMatch(UUID);
    expect(Date.parse(key.expiresAt) - Date.parse(key.createdAt)).toBe(30 * 86_400_000);
    expect(sim.sim.deps.store.get('keys', key.id)?.secretHash).toBe(hashSecret(secret));
  });

  it('accepts the boundaries: name of 100, 1 and 90 days, 1 and 600 per minute, 50 listings, monitor scopes for an EVM ETH key', async () => {
    const listingIds = sim.sim.deps.store.all('listings').slice(0, 50).map((l) => l.id);
    expect(listingIds).toHaveLength(50);
    const ok = [
      { profile: 'solana_usdc', spendLimitAtomic: '0', name: 'n'.repeat(100) },
      { profile: 'solana_sol', spendLimitAtomic: '1', expiresInDays: 1, rateLimitPerMinute: 1 },
      { profile: 'solana_sol', spendLimitAtomic: '1', expiresInDays: 90, rateLimitPerMinute: 600 },
      { profile: 'solana_sol', spendLimitAtomic: '1', listingIds },
      { profile: 'solana_sol', spendLimitAtomic: '1', listingIds: null },
      { profile: 'sim', spendLimitAtomic: '1' },
    ];
    for (const body of ok) {
      const response = await post(solana, body);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    const monitor = await post(evm, { profile: 'local_custody', spendLimitAtomic: '1', scopes: ['monitors:read', 'monitors:write'] });
    expect(monitor.status).toBe(201);
    expect(monitor.body.key.scopes).toEqual(['monitors:read', 'monitors:write']);
    expect((await post(evm, { profile: 'sim', spendLimitAtomic: '1' })).status).toBe(201);
  });

  it('refuses every setting outside the rules with 400 invalid_input naming the field', async () => {
    const base = { profile: 'solana_sol', spendLimitAtomic: '1' };
    const tooManyListings = Array.from({ length: 51 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['name over 100', solana, { ...base, name: 'n'.repeat(101) }, 'name'],
      ['Solana account, ETH key', solana, { profile: 'local_custody', spendLimitAtomic: '1' }, 'profile'],
      ['EVM account, SOL key', evm, { profile: 'solana_sol', spendLimitAtomic: '1' }, 'profile'],
      ['EVM account, USDC key', evm, { profile: 'solana_usdc', spendLimitAtomic: '1' }, 'profile'],
      ['monitor scope on a Solana account', solana, { ...base, scopes: ['catalog:read', 'monitors:read'] }, 'scopes'],
      ['monitor scope on an EVM sim key', evm, { profile: 'sim', spendLimitAtomic: '1', scopes: ['monitors:write'] }, 'scopes'],
      ['expires in 0 days', solana, { ...base, expiresInDays: 0 }, 'expiresInDays'],
      ['expires in 91 days', solana, { ...base, expiresInDays: 91 }, 'expiresInDays'],
      ['0 per minute', solana, { ...base, rateLimitPerMinute: 0 }, 'rateLimitPerMinute'],
      ['601 per minute', solana, { ...base, rateLimitPerMinute: 601 }, 'rateLimitPerMinute'],
      ['51 listings', solana, { ...base, listingIds: tooManyListings }, 'listingIds'],
      ['unknown listing', solana, { ...base, listingIds: [tooManyListings[0]] }, 'listingIds'],
      ['unknown scope', solana, { ...base, scopes: ['everything'] }, 'scopes'],
      ['missing spend limit', solana, { profile: 'solana_sol' }, 'spendLimitAtomic'],
      ['number spend limit', solana, { profile: 'solana_sol', spendLimitAtomic: 5 }, 'spendLimitAtomic'],
      ['unknown property', solana, { ...base, secret: 'x' }, 'secret'],
    ];
    const keysBefore = sim.sim.deps.store.count('keys');
    for (const [what, account, body, field] of cases) {
      const response = await post(account, body);
      expect(response.status, what).toBe(400);
      expect(response.body.error.code, what).toBe('invalid_input');
      expect(response.body.error.message, what).toContain(field);
    }
    expect(sim.sim.deps.store.count('keys')).toBe(keysBefore);
    const unknownAccount = await post('00000000-0000-4000-8000-000000000000', base);
    expect(unknownAccount.status).toBe(404);
  });
});

describe('key limits and revocation', () => {
  it('allows 20 active keys (21st is 409) and 50 in total including revoked ones (51st is 409)', async () => {
    const sim = await start({ demo: false });
    const account = await createAccount(sim, 'solana');
    const make = () => sim.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1' } });
    const revoke = (id: string) => sim.json({ method: 'POST', url: `/sim/keys/${id}/revoke` });

    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const response = await make();
      expect(response.status).toBe(201);
      ids.push(response.body.key.id);
    }
    const twentyFirst = await make();
    expect(twentyFirst.status).toBe(409);
    expect(twentyFirst.body.error.code).toBe('request_rejected');
    expect(twentyFirst.body.error.message).toMatch(/20 active keys/);

    // Revoked keys free active slots but still count towards the 50.
    for (let round = 0; round < 2; round += 1) {
      for (const id of ids.splice(0)) expect((await revoke(id)).status).toBe(200);
      for (let i = 0; i < (round === 0 ? 20 : 10); i += 1) {
        const response = await make();
        expect(response.status).toBe(201);
        ids.push(response.body.key.id);
      }
    }
    // 20 + 20 + 10 = 50 keys, 10 of them active.
    const listed = await sim.json({ url: `/sim/accounts/${account}/keys` });
    expect(listed.body.keys).toHaveLength(50);
    expect(listed.body.keys.filter((k: { status: string }) => k.status === 'active')).toHaveLength(10);
    const fiftyFirst = await make();
    expect(fiftyFirst.status).toBe(409);
    expect(fiftyFirst.body.error.message).toMatch(/50 keys/);
    // Another account is not affected.
    const other = await createAccount(sim, 'solana');
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${other}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1' } })).status).toBe(201);
  });

  it('expired keys free active slots too', async () => {
    const sim = await start({ demo: false });
    const account = await createAccount(sim, 'evm');
    for (let i = 0; i < 20; i += 1) await createKey(sim, account, { profile: 'local_custody', spendLimitAtomic: '1', expiresInDays: 1 });
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1' } })).status).toBe(409);
    await advance(sim, { seconds: 86_400 });
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1' } })).status).toBe(201);
  });

  it('revocation is immediate and permanent; revoking twice changes nothing', async () => {
    const sim = await start({ demo: false });
    const account = await createAccount(sim, 'evm');
    const { key, secret } = await createKey(sim, account, { profile: 'local_custody', spendLimitAtomic: '1' });
    expect((await sim.json({ url: '/v1/buyer/key', key: secret })).status).toBe(200);
    await advance(sim, { seconds: 30 });
    const first = await sim.json({ method: 'POST', url: `/sim/keys/${key.id}/revoke` });
    expect(first.status).toBe(200);
    expect(first.body.key).toMatchObject({ id: key.id, status: 'revoked', revokedAt: '2026-01-01T00:00:30.000Z' });
    expect(Object.keys(first.body.key).sort()).toEqual([...KEY_FIELDS].sort());
    const refused = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(UNAUTHENTICATED);

    await advance(sim, { seconds: 3600 });
    const second = await sim.json({ method: 'POST', url: `/sim/keys/${key.id}/revoke` });
    expect(second.status).toBe(200);
    expect(second.body.key.revokedAt).toBe(first.body.key.revokedAt);
    expect(second.body.key).toEqual(first.body.key);
    // Still revoked after its expiry would have passed.
    await advance(sim, { seconds: 31 * 86_400 });
    const later = await sim.json({ url: `/sim/accounts/${account}/keys` });
    expect(later.body.keys[0].status).toBe('revoked');
    expect((await sim.json({ method: 'POST', url: '/sim/keys/00000000-0000-4000-8000-000000000000/revoke' })).status).toBe(404);
  });
});
