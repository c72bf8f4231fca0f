import { describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { advance, createAccount, createKey, simulatorsPerTest } from './support.ts';

const KEY_RATE_LIMITED = { error: { code: 'request_rejected', message: 'This API key exceeded its request rate limit. Try again shortly.' } };
const TOO_MANY = { error: { code: 'request_rejected', message: 'Too many requests. Try again shortly.' } };

const start = simulatorsPerTest();

/** Every error answer is exactly { error: { code, message } }. */
function expectErrorBody(body: unknown, code: string): { code: string; message: string } {
  expect(Object.keys(body as object)).toEqual(['error']);
  const error = (body as { error: Record<string, unknown> }).error;
  expect(Object.keys(error).sort()).toEqual(['code', 'message']);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect((error.message as string).length).toBeGreaterThan(0);
  return error as { code: string; message: string };
}

describe('request bodies', () => {
  it('a body over 262144 bytes is 413 with the error body; one just under the limit is read', async () => {
    const sim = await start({ demo: false });
    const padded = (bytes: number) => {
      const head = JSON.stringify({ type: 'solana', label: '' });
      return head.replace('"label":""', `"label":"${'x'.repeat(bytes - head.length)}"`);
    };
    const over = padded(262_145);
    expect(Buffer.byteLength(over)).toBe(262_145);
    const tooLarge = await sim.app.inject({ method: 'POST', url: '/sim/accounts', payload: over, headers: { 'content-type': 'application/json' } });
    expect(tooLarge.statusCode).toBe(413);
    expectErrorBody(JSON.parse(tooLarge.body), 'invalid_input');
    expect(JSON.parse(tooLarge.body).error.message).toContain('262144');

    // At the limit the body is read (and then refused by validation for the long label, not for its size).
    const atLimit = padded(262_144);
    const read = await sim.app.inject({ method: 'POST', url: '/sim/accounts', payload: atLimit, headers: { 'content-type': 'application/json' } });
    expect(read.statusCode).toBe(400);
    expect(JSON.parse(read.body).error.message).toContain('label');

    // The limit holds on /v1 too.
    const v1 = await sim.app.inject({ method: 'POST', url: '/v1/buyer/key', payload: over, headers: { 'content-type': 'application/json' } });
    expect(v1.statusCode).toBe(413);
    expectErrorBody(JSON.parse(v1.body), 'invalid_input');
  });

  it('invalid JSON is 400 invalid_input', async () => {
    const sim = await start({ demo: false });
    for (const payload of ['{"type": "solana"', 'not json', '{"type": "solana",}', '']) {
      const response = await sim.app.inject({ method: 'POST', url: '/sim/accounts', payload, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode, payload).toBe(400);
      expectErrorBody(JSON.parse(response.body), 'invalid_input');
    }
    expect(sim.sim.deps.store.count('accounts')).toBe(0);
  });

  it('an unknown body property is 400 naming the property (refused, not stripped)', async () => {
    const sim = await start({ demo: false });
    const response = await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm', colour: 'blue' } });
    expect(response.status).toBe(400);
    expect(expectErrorBody(response.body, 'invalid_input').message).toContain('colour');
    const advanceExtra = await sim.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 1, extraField: true } });
    expect(advanceExtra.status).toBe(400);
    expect(advanceExtra.body.error.message).toContain('extraField');
    expect(sim.sim.deps.store.count('accounts')).toBe(0);
  });

  it('an unknown query parameter is 400 naming it; a wrong type is 400 naming the field', async () => {
    const sim = await start();
    const query = await sim.json({ url: '/v1/buyer/key?verbose=1', key: sim.secret('sim') });
    expect(query.status).toBe(400);
    expect(expectErrorBody(query.body, 'invalid_input').message).toContain('verbose');
    const typed = await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'solana', label: 7 } });
    expect(typed.status).toBe(400);
    expect(typed.body.error.message).toContain('label');
    const unknownSim = await sim.json({ url: '/sim/nothing-here' });
    expect(unknownSim.status).toBe(404);
    expectErrorBody(unknownSim.body, 'not_found');
  });
});

describe('rate limits (limits on)', () => {
  it('per key: the request over rateLimitPerMinute is 429 with Retry-After; the key recovers after 60 s', async () => {
    // Real time stands still here, so the exact Retry-After figures do not depend on the machine's speed.
    const sim = await start({ limits: true, realTime: () => 0 });
    const account = await createAccount(sim, 'solana');
    const { secret } = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i += 1) expect((await sim.json({ url: '/v1/buyer/key', key: secret })).status).toBe(200);
    const limited = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(KEY_RATE_LIMITED);
    expect(limited.headers['retry-after']).toBe('60');
    // Other keys are not affected.
    expect((await sim.json({ url: '/v1/buyer/key', key: sim.secret('solana_sol') })).status).toBe(200);
    // The window rolls: 30 s on, the oldest requests are still in it.
    await advance(sim, { seconds: 30 });
    const stillLimited = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers['retry-after']).toBe('30');
    await advance(sim, { seconds: 30 });
    const recovered = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(recovered.status).toBe(200);
    // Refused requests were not counted: 3 answered in the first minute, 1 now.
    expect(recovered.body.key.requestsLast24h).toBe(4);
  });

  it('per client address: the 121st request in a minute is 429 with Retry-After, whatever the route or key', async () => {
    const sim = await start({ limits: true });
    const keys = sim.demo.map((d) => d.secret);
    for (let i = 0; i < 120; i += 1) {
      const response = i % 2 === 0 ? await sim.request({ url: '/v1/capabilities' }) : await sim.request({ url: '/v1/buyer/key', key: keys[i % keys.length] });
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
    }
    for (const request of [{ url: '/v1/capabilities' }, { url: '/v1/buyer/key', key: keys[0] }]) {
      const limited = await sim.json(request);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual(TOO_MANY);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // /sim calls count against no limit.
    for (let i = 0; i < 5; i += 1) expect((await sim.json({ url: '/sim/clock' })).status).toBe(200);
    await advance(sim, { seconds: 60 });
    expect((await sim.json({ url: '/v1/capabilities' })).status).toBe(200);
  });

  it('with limits off nothing is rate limited', async () => {
    const sim = await start({ limits: false });
    const account = await createAccount(sim, 'evm');
    const { secret } = await createKey(sim, account, { profile: 'local_custody', spendLimitAtomic: '1', rateLimitPerMinute: 1 });
    for (let i = 0; i < 130; i += 1) {
      const response = await sim.request({ url: '/v1/buyer/key', key: secret });
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
    }
    const capabilities = await sim.json({ url: '/v1/capabilities' });
    expect(capabilities.status).toBe(200);
    expect(capabilities.body.limits.rateLimitsEnforced).toBe(false);
  });
});

describe('error messages never carry a credential', () => {
  it('whatever the request does with the secret', async () => {
    const sim = await start();
    const secret = sim.secret('solana_sol');
    const account = await createAccount(sim, 'solana');
    const revoked = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1' });
    await sim.json({ method: 'POST', url: `/sim/keys/${revoked.key.id}/revoke` });
    const secrets = [secret, revoked.secret];

    // A secret pasted as a query parameter name: still named, but redacted.
    const pasted = await sim.json({ url: `/v1/buyer/key?${secret}`, key: secret });
    expect(pasted.status).toBe(400);
    expect(pasted.body).toEqual({ error: { code: 'invalid_input', message: "Unknown query parameter '[redacted credential]'." } });

    const requests: Array<Parameters<TestSimulator['request']>[0]> = [
      { url: `/v1/buyer/key?${secret}`, key: secret },
      { url: `/v1/buyer/key?key=${secret}`, key: secret },
      { url: `/v1/buyer/key?${secret}=1` },
      { url: `/v1/${secret}`, key: secret },
      { url: `/v1/${secret}` },
      { url: '/v1/buyer/key', headers: { authorization: `Bearer ${secret} ${secret}` } },
      { url: '/v1/buyer/key', headers: { authorization: secret } },
      { url: '/v1/buyer/key', key: revoked.secret },
      { url: '/v1/buyer/key', key: secret, headers: { cookie: `svc_session=${secret}` } },
      { method: 'POST', url: '/sim/accounts', body: { type: secret } },
      { method: 'POST', url: '/sim/accounts', body: { type: 'solana', [secret]: true } },
      { method: 'POST', url: `/sim/accounts/${account}/deposits`, body: { profile: 'solana_sol', amountAtomic: secret } },
      { method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1', name: secret.repeat(3) } },
      { method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1', listingIds: [secret] } },
      { method: 'POST', url: '/sim/clock/advance', body: { to: secret } },
      { url: `/sim/accounts/${secret}` },
    ];
    for (const request of requests) {
      const response = await sim.request(request);
      expect(response.statusCode, request.url).toBeGreaterThanOrEqual(400);
      const body = JSON.parse(response.body);
      expectErrorBody(body, body.error.code);
      for (const s of secrets) {
        expect(response.body, `${request.method ?? 'GET'} ${request.url}`).not.toContain(s);
        expect(response.body).not.toContain(s.slice('svc_test_'.length));
      }
    }
  });
});
