import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createClient, NetworkError } from '../../src/client/index.ts';
import { parseRetryAfter } from '../../src/client/errors.ts';
import { errorBody, recordingSleep, startFaultServer, type FaultServer } from './fault-server.ts';

/** The fetch wrapper: credentials per route family, JSON in and out, typed errors. */

const KEY = 'svc_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const make = (options: { key?: string; controlToken?: string; baseUrl?: string } = {}) =>
  createClient({ baseUrl: server.url, sleep: recordingSleep().sleep, ...options });

describe('credentials', () => {
  it('send the key as a bearer on /v1 and the control token (not the key) on /sim', async () => {
    server.script('/v1/buyer/key', [{ status: 200, body: { key: { id: 'k' } } }]);
    server.script('/sim/clock', [{ status: 200, body: { now: '2026-01-01T00:00:00.000Z', mode: 'frozen' } }]);
    const c = make({ key: KEY, controlToken: 'tok' });
    await c.v1.getKey();
    await expect(c.sim.clock()).resolves.toEqual({ now: '2026-01-01T00:00:00.000Z', mode: 'frozen' });
    const [v1, sim] = server.requests;
    expect(v1.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(v1.headers['x-understudy-control-token']).toBeUndefined();
    expect(sim.headers['x-understudy-control-token']).toBe('tok');
    expect(sim.headers.authorization).toBeUndefined();
  });

  it('send no credential for the OpenAPI document, and none at all without a key', async () => {
    server.script('/v1/openapi.json', [{ status: 200, body: { openapi: '3.1.0' } }]);
    server.script('/v1/public/agents', [{ status: 200, body: { agents: [], nextCursor: null, total: 0, sort: 'newest', environment: {} } }]);
    await make({ key: KEY }).v1.openapi();
    await make().v1.listAgents();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });
});

describe('requests', () => {
  it('encode the query, skipping unset filters, under a base URL with a path and trailing slash', async () => {
    server.script('/prefix/v1/public/agents', [{ status: 200, body: { agents: [], nextCursor: null, total: 0, sort: 'name', environment: {} } }]);
    const c = make({ baseUrl: `${server.url}/prefix/` });
    await c.v1.listAgents({ q: 'nft holders', chain: 'solana', sort: 'name', limit: 5, topic: undefined });
    const sent = server.requests[0];
    expect(sent.path).toBe('/prefix/v1/public/agents');
    expect(Object.fromEntries(new URLSearchParams(sent.query))).toEqual({ q: 'nft holders', chain: 'solana', sort: 'name', limit: '5' });
  });

  it('return the export body with its artifact id header', async () => {
    const id = '55555555-5555-4555-8555-555555555555';
    server.script(`/v1/runs/${id}/export`, [{ status: 200, body: { run: { id, status: 'succeeded' }, version: {}, events: [] }, headers: { 'x-service-artifact-id': 'art-1' } }]);
    const result = await make({ key: KEY }).v1.exportRun(id);
    expect(result.artifactId).toBe('art-1');
    expect(result.export.run.id).toBe(id);
  });
});

describe('errors', () => {
  it('carry status, code and message from the error body', async () => {
    server.script('/v1/runs/66666666-6666-4666-8666-666666666666', [{ status: 404, body: errorBody('not_found', 'This run was not found.') }]);
    const error = await make({ key: KEY }).v1.getRun('66666666-6666-4666-8666-666666666666').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'This run was not found.', retryAfterSeconds: null, method: 'GET' });
  });

  it('describe an answer that is not the spec error body', async () => {
    server.script('/v1/capabilities', [{ status: 502, body: '<html>bad gateway</html>' }]);
    const error = await make().v1.capabilities().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'http_502' });
    expect((error as Error).message).toContain('bad gateway');
  });

  it('report a refused connection as a NetworkError', async () => {
    const closed = await startFaultServer();
    const url = closed.url;
    await closed.close();
    const error = await createClient({ baseUrl: url, retries: 0 }).v1.capabilities().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/GET \/v1\/capabilities failed before an answer arrived/);
  });

  it('read Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
