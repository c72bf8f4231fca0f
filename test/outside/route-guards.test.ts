import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Every guard (control token, authentication, the one-credential rule, rate
 * limits, no-store, the request log) belongs to the route the router matched.
 * The router decodes percent-encoding before matching, so an encoded spelling
 * reaches the same route and must meet the same guards; doubled slashes and
 * another letter case match no route (404) and reach nothing.
 */

const TOKEN = 'control-token-for-guards';
const CONTROL = { 'x-understudy-control-token': TOKEN };
const NOT_FOUND = { error: { code: 'not_found', message: 'No route matches this method and path.' } };
const UNAUTHENTICATED = { error: { code: 'request_rejected', message: 'A valid, active API key is required.' } };
const NO_CONTROL_TOKEN = { error: { code: 'request_rejected', message: 'The control API requires the x-understudy-control-token header.' } };

/** The path with the first character of one segment percent-encoded, for every segment, in both hex cases. */
function encodedSpellings(path: string): string[] {
  const segments = path.split('/');
  const spellings: string[] = [];
  segments.forEach((segment, i) => {
    if (segment === '') return;
    const hex = segment.charCodeAt(0).toString(16);
    for (const code of new Set([hex.toLowerCase(), hex.toUpperCase()])) {
      spellings.push([...segments.slice(0, i), `%${code}${segment.slice(1)}`, ...segments.slice(i + 1)].join('/'));
    }
  });
  return spellings;
}

/** Spellings the router does not take for the path: doubled slashes and other letter cases. */
function unmatchedSpellings(path: string): string[] {
  const [, first, ...rest] = path.split('/');
  return [`/${path}`, `/${first}//${rest.join('/')}`, path.toUpperCase(), `/${first.toUpperCase()}/${rest.join('/')}`];
}

let s: TestSimulator;
let eth: string;
let snapshotBefore: string;

beforeAll(async () => {
  s = await startSimulator({ controlToken: TOKEN, limits: true });
  eth = s.secret('local_custody');
});
afterAll(async () => s?.destroy());

const accounts = async () => (await s.json({ url: '/sim/accounts', headers: CONTROL })).body;

describe('/sim under every spelling', () => {
  it('an encoded /sim path needs the control token; without it nothing is reset or read', async () => {
    const before = await accounts();
    expect(before.accounts.length).toBeGreaterThan(0);
    for (const path of ['/sim/reset', '/sim/snapshot', '/sim/clock']) {
      const method = path === '/sim/reset' ? 'POST' : 'GET';
      for (const url of encodedSpellings(path)) {
        const refused = await s.json({ method, url });
        expect(refused.status, `${method} ${url}`).toBe(401);
        expect(refused.body, url).toEqual(NO_CONTROL_TOKEN);
      }
    }
    expect(await accounts()).toEqual(before);
    // With the token, the encoded spelling is the same route.
    const clock = await s.json({ url: '/%73im/cl%6Fck', headers: CONTROL });
    expect(clock.status).toBe(200);
    expect(clock.body.mode).toBe('frozen');
    snapshotBefore = JSON.stringify(before);
  });

  it('doubled slashes and other letter cases match no route: never answered as the route, and nothing changes', async () => {
    for (const path of ['/sim/reset', '/sim/snapshot']) {
      const method = path === '/sim/reset' ? 'POST' : 'GET';
      for (const url of unmatchedSpellings(path)) {
        const withToken = await s.json({ method, url, headers: CONTROL });
        expect(withToken.status, `${method} ${url}`).toBe(404);
        expect(withToken.body).toEqual(NOT_FOUND);
        // Without the token an unknown /sim path reveals nothing either: 401 as a /sim route, else 404.
        const without = await s.json({ method, url });
        expect([401, 404], `${method} ${url}`).toContain(without.status);
        expect(without.body).toEqual(without.status === 401 ? NO_CONTROL_TOKEN : NOT_FOUND);
      }
    }
    expect(JSON.stringify(await accounts())).toBe(snapshotBefore);
  });
});

describe('keyed /v1 routes under every spelling', () => {
  it('an encoded path authenticates, refuses both credentials, and answers no-store like the plain one', async () => {
    for (const url of ['/v1/buyer/key', ...encodedSpellings('/v1/buyer/key')]) {
      const missing = await s.json({ url });
      expect(missing.status, url).toBe(401);
      expect(missing.body).toEqual(UNAUTHENTICATED);
      expect(missing.headers['cache-control'], url).toBe('no-store');
      const invalid = await s.json({ url, key: 'svc_test_' + 'A'.repeat(43) });
      expect(invalid.status, url).toBe(401);
      const both = await s.json({ url, key: eth, headers: { cookie: 'svc_session=x' } });
      expect(both.status, url).toBe(400);
      const ok = await s.json({ url, key: eth });
      expect(ok.status, url).toBe(200);
      expect(ok.headers['cache-control'], url).toBe('no-store');
    }
    const cancel = await s.json({ method: 'POST', url: '/%761/runs/00000000-0000-4000-8000-000000000000/c%61ncel' });
    expect(cancel.status).toBe(401);
    expect(cancel.body).toEqual(UNAUTHENTICATED);
  });

  it('an encoded path counts against the key rate limit and is written to the request log under its route', async () => {
    const account = (await s.json({ method: 'POST', url: '/sim/accounts', headers: CONTROL, body: { type: 'evm' } })).body.account.id;
    const created = await s.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, headers: CONTROL, body: { profile: 'local_custody', spendLimitAtomic: '1', rateLimitPerMinute: 1 } });
    expect(created.status).toBe(201);
    const first = await s.json({ url: '/%761/buyer/key', key: created.body.secret });
    expect(first.status).toBe(200);
    expect(first.body.key.lastUsedAt).not.toBeNull();
    const second = await s.json({ url: '/v1/%62uyer/key', key: created.body.secret });
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBeDefined();
    const log = (await s.json({ url: '/sim/requests?limit=2', headers: CONTROL })).body.requests;
    expect(log.map((entry: { route: string; status: number }) => [entry.route, entry.status])).toEqual([
      ['/v1/buyer/key', 200],
      ['/v1/buyer/key', 429],
    ]);
  });

  it('doubled slashes and other letter cases are unknown routes: never the route, never its answer', async () => {
    for (const url of unmatchedSpellings('/v1/buyer/key')) {
      const keyless = await s.json({ url });
      expect(keyless.status, url).toBe(404);
      expect(keyless.body).toEqual(NOT_FOUND);
      const keyed = await s.json({ url, key: eth });
      expect(keyed.status, url).not.toBe(200);
      expect(keyed.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('the public catalog and the machine description under every spelling', () => {
  it('an encoded catalog path refuses an invalid key and is logged', async () => {
    for (const url of encodedSpellings('/v1/public/agents')) {
      const invalid = await s.json({ url, key: 'nonsense' });
      expect(invalid.status, url).toBe(401);
      expect(invalid.body).toEqual(UNAUTHENTICATED);
      const anonymous = await s.json({ url: `${url}?limit=1` });
      expect(anonymous.status, url).toBe(200);
      expect(anonymous.body.agents).toHaveLength(1);
    }
    const log = (await s.json({ url: '/sim/requests?limit=1', headers: CONTROL })).body.requests;
    expect(log[0].route).toBe('/v1/public/agents');
    for (const url of unmatchedSpellings('/v1/public/agents')) expect((await s.json({ url })).status, url).toBe(404);
  });

  it('an encoded /v1/openapi.json is the same document; other spellings are 404', async () => {
    const plain = await s.request({ url: '/v1/openapi.json' });
    expect(plain.statusCode).toBe(200);
    for (const url of [...encodedSpellings('/v1/openapi.json'), '/v1/openapi%2Ejson']) {
      const encoded = await s.request({ url });
      expect(encoded.statusCode, url).toBe(200);
      expect(encoded.body).toBe(plain.body);
    }
    for (const url of unmatchedSpellings('/v1/openapi.json')) expect((await s.json({ url })).status, url).toBe(404);
  });
});
