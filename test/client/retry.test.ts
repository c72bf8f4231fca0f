import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createClient, NetworkError } from '../../src/client/index.ts';
import { errorBody, recordingSleep, startFaultServer, type FaultServer, type ScriptedAnswer } from './fault-server.ts';

/** Spec part 7, retry rules, against a real HTTP server that misbehaves on cue. */

const KEY = 'svc_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const RUN_ID = '11111111-1111-4111-8111-111111111111';
const QUOTE_ID = '22222222-2222-4222-8222-222222222222';
const fail500 = { status: 500, body: errorBody('internal_error', 'An unexpected error occurred.') };
const fail503 = { status: 503, body: errorBody('service_unavailable', 'Payments in this currency are disabled.') };
const tooMany = (retryAfter?: string): ScriptedAnswer => ({
  status: 429,
  body: errorBody('request_rejected', 'Too many requests. Try again shortly.'),
  headers: retryAfter === undefined ? undefined : { 'retry-after': retryAfter },
});
const keyOk = { status: 200, body: { key: { id: 'k', scopes: [], profile: 'sim', spendLimitAtomic: '1', spendUsedAtomic: '0', remainingSpendAtomic: '1', expiresAt: '2026-01-01T00:00:00Z', status: 'active' } } };

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function client(options: { retries?: number } = {}) {
  const recorder = recordingSleep();
  return { ...recorder, client: createClient({ baseUrl: server.url, key: KEY, sleep: recorder.sleep, ...options }) };
}

describe('GET requests', () => {
  it('retry a 500 twice, waiting 250 ms then 500 ms', async () => {
    server.script('/v1/buyer/key', [fail500, fail500, keyOk]);
    const { client: c, waits } = client();
    const key = await c.v1.getKey();
    expect(key.id).toBe('k');
    expect(server.requestsTo('/v1/buyer/key')).toHaveLength(3);
    expect(waits).toEqual([250, 500]);
  });

  it('give up after 2 retries and throw the last error', async () => {
    server.script('/v1/buyer/key', [fail500]);
    const { client: c, waits } = client();
    const error = await c.v1.getKey().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', message: 'An unexpected error occurred.' });
    expect(server.requestsTo('/v1/buyer/key')).toHaveLength(3);
    expect(waits).toEqual([250, 500]);
  });

  it('retry a dropped connection as a NetworkError', async () => {
    server.script('/v1/buyer/key', ['destroy', 'destroy', keyOk]);
    const { client: c, waits } = client();
    await expect(c.v1.getKey()).resolves.toMatchObject({ id: 'k' });
    expect(waits).toEqual([250, 500]);

    server.script('/v1/buyer/key', ['destroy']);
    const error = await c.v1.getKey().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'network_error', status: null, method: 'GET', path: '/v1/buyer/key' });
    expect((error as Error).message).not.toContain(KEY);
  });

  it('retry 429 with the doubling backoff when there is no Retry-After', async () => {
    server.script('/v1/buyer/key', [tooMany(), tooMany(), keyOk]);
    const { client: c, waits } = client();
    await c.v1.getKey();
    expect(waits).toEqual([250, 500]);
  });

  it('honour Retry-After, capped at 30 seconds', async () => {
    server.script('/v1/buyer/key', [tooMany('3'), tooMany('120'), keyOk]);
    const { client: c, waits } = client();
    await c.v1.getKey();
    expect(waits).toEqual([3000, 30_000]);
  });

  it('expose Retry-After on the error when retries run out', async () => {
    server.script('/v1/buyer/key', [tooMany('7')]);
    const { client: c } = client({ retries: 0 });
    await expect(c.v1.getKey()).rejects.toMatchObject({ status: 429, code: 'request_rejected', retryAfterSeconds: 7 });
    expect(server.requestsTo('/v1/buyer/key')).toHaveLength(1);
  });

  it('never retry 503', async () => {
    server.script('/v1/buyer/key', [fail503, keyOk]);
    const { client: c, waits } = client();
    await expect(c.v1.getKey()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(server.requestsTo('/v1/buyer/key')).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('never retry a 4xx other than 429', async () => {
    server.script('/v1/public/agents', [{ status: 400, body: errorBody('invalid_input', "Unknown query parameter 'foo'.") }, { status: 200, body: {} }]);
    const { client: c, waits } = client();
    await expect(c.v1.listAgents()).rejects.toMatchObject({ status: 400, code: 'invalid_input' });
    expect(server.requestsTo('/v1/public/agents')).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('take the number of retries from the options', async () => {
    server.script('/v1/buyer/key', [fail500]);
    const four = client({ retries: 4 });
    await expect(four.client.v1.getKey()).rejects.toBeInstanceOf(ApiError);
    expect(four.waits).toEqual([250, 500, 1000, 2000]);
    expect(server.requestsTo('/v1/buyer/key')).toHaveLength(5);
  });
});

describe('quote creation', () => {
  const body = { listingId: '33333333-3333-4333-8333-333333333333', input: { chain: 'chainx', address: '0xabc' } };

  it('is never retried on a 500', async () => {
    server.script('/v1/custody/quotes', [fail500, { status: 201, body: { quote: {} } }]);
    const { client: c, waits } = client();
    await expect(c.v1.createQuote('custody', body)).rejects.toMatchObject({ status: 500 });
    expect(server.requestsTo('/v1/custody/quotes')).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('is never retried after a network failure', async () => {
    server.script('/v1/custody/quotes', ['destroy', { status: 201, body: { quote: {} } }]);
    const { client: c, waits } = client();
    await expect(c.v1.createQuote('custody', body)).rejects.toBeInstanceOf(NetworkError);
    expect(server.requestsTo('/v1/custody/quotes')).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('is not retried on 429 either', async () => {
    server.script('/v1/solana-custody/quotes', [tooMany('1'), { status: 201, body: { quote: {} } }]);
    const { client: c } = client();
    await expect(c.v1.createQuote('solana-custody', body)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 1 });
    expect(server.requestsTo('/v1/solana-custody/quotes')).toHaveLength(1);
  });
});

describe('retries that are safe because they replay', () => {
  it('accept is retried with the identical body and idempotency key', async () => {
    const path = `/v1/custody/quotes/${QUOTE_ID}/accept`;
    const acceptance = { run: { id: RUN_ID, status: 'queued' }, reservation: { id: RUN_ID, quoteId: QUOTE_ID, maximumAtomic: '10' }, notice: 'n' };
    server.script(path, [fail500, 'destroy', { status: 202, body: acceptance }]);
    const { client: c, waits } = client();
    const result = await c.v1.acceptQuote('custody', QUOTE_ID, { acceptedContractHash: 'a'.repeat(64), idempotencyKey: 'accept-0001' });
    expect(result.run.id).toBe(RUN_ID);
    const sent = server.requestsTo(path);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(sent[0].body)).toEqual({ acceptedContractHash: 'a'.repeat(64), idempotencyKey: 'accept-0001' });
    expect(sent.every((r) => r.method === 'POST' && r.headers['content-type'] === 'application/json')).toBe(true);
    expect(waits).toEqual([250, 500]);
  });

  it('accept is not retried on 409 (a ledger refusal)', async () => {
    const path = `/v1/rehearsal/quotes/${QUOTE_ID}/accept`;
    server.script(path, [{ status: 409, body: errorBody('quote_expired', 'Accounting rejected this action: the quote expired 240 seconds after it was created.') }]);
    const { client: c } = client();
    await expect(c.v1.acceptQuote('rehearsal', QUOTE_ID, { acceptedContractHash: 'b'.repeat(64), idempotencyKey: 'accept-0002' })).rejects.toMatchObject({
      status: 409,
      code: 'quote_expired',
    });
    expect(server.requestsTo(path)).toHaveLength(1);
  });

  it('cancel run, stop monitor and acknowledge notification are retried, without a body', async () => {
    const id = '44444444-4444-4444-8444-444444444444';
    server.script(`/v1/runs/${id}/cancel`, [tooMany(), { status: 200, body: { run: { id, status: 'cancelled' } } }]);
    server.script(`/v1/monitors/${id}/stop`, [fail500, { status: 200, body: { monitor: { id, status: 'stopped' } } }]);
    server.script(`/v1/notifications/${id}/ack`, ['destroy', { status: 200, body: { notification: { id, acknowledgedAt: '2026-01-01T00:00:00Z' } } }]);
    const { client: c, waits } = client();
    await expect(c.v1.cancelRun(id)).resolves.toMatchObject({ status: 'cancelled' });
    await expect(c.v1.stopMonitor(id)).resolves.toMatchObject({ status: 'stopped' });
    await expect(c.v1.ackNotification(id)).resolves.toMatchObject({ id });
    expect(waits).toEqual([250, 250, 250]);
    for (const path of [`/v1/runs/${id}/cancel`, `/v1/monitors/${id}/stop`, `/v1/notifications/${id}/ack`]) {
      const sent = server.requestsTo(path);
      expect(sent).toHaveLength(2);
      expect(sent.every((r) => r.body === '' && r.headers['content-type'] === undefined)).toBe(true);
    }
  });

  it('control calls that change state are not retried', async () => {
    server.script('/sim/accounts', [fail500, { status: 201, body: { account: { id: 'a', type: 'evm' } } }]);
    const { client: c } = client();
    await expect(c.sim.createAccount({ type: 'evm' })).rejects.toMatchObject({ status: 500 });
    expect(server.requestsTo('/sim/accounts')).toHaveLength(1);
  });
});
