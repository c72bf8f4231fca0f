import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp, type HttpRequest } from '../../src/client/http.ts';
import { nodeHttpFetch } from '../../src/scenario/node-http-fetch.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * The scenario runner's transport (fetch over node:http) against undici's fetch:
 * the same requests through createHttp give the same answers and the same errors.
 */

const received: Array<{ method: string; url: string; contentType: string | undefined; body: string }> = [];
const held: ServerResponse[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  received.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body });
  if (req.url === '/answer') {
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-1' }).end(JSON.stringify({ ok: true, got: body }));
  } else if (req.url === '/refused') {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.' } }));
  } else if (req.url === '/nothing') {
    res.writeHead(204).end();
  } else if (req.url === '/not-json') {
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
  } else if (req.url === '/cut') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"half":');
    res.destroy();
  } else held.push(res);
}

let url = '';
let closedUrl = '';
let sim: TestSimulator;
let simUrl = '';
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port that was just free: nothing listens there.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));
  sim = await startSimulator();
  simUrl = await sim.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sim.destroy();
});

/** What a call came to: the answer's status, body and the headers named, or the error's class and message. */
async function outcome(baseUrl: string, fetchImpl: typeof fetch, request: HttpRequest, timeoutMs?: number) {
  const http = createHttp({ baseUrl, key: 'k-123', fetch: fetchImpl, ...(timeoutMs ? { timeoutMs } : {}), retry: { retries: 0, baseDelayMs: 1, maxRetryAfterMs: 1, sleep: async () => undefined } });
  try {
    const r = await http.send<unknown>(request);
    return { status: r.status, body: r.body, requestId: r.headers.get('x-request-id'), cookies: r.headers.getSetCookie() };
  } catch (error) {
    const e = error as Error & { status?: number; code?: string; retryAfterSeconds?: number | null };
    return { error: e.constructor.name, message: e.message, status: e.status, code: e.code, retryAfterSeconds: e.retryAfterSeconds };
  }
}

describe('fetch over node:http, beside undici fetch', () => {
  const cases: Array<[string, HttpRequest]> = [
    ['a JSON answer with repeated headers', { method: 'GET', path: '/answer' }],
    ['a JSON body sent', { method: 'POST', path: '/answer', body: { amount: '10', note: 'é ✓' } }],
    ['a bodyless POST', { method: 'POST', path: '/answer' }],
    ['a refusal with Retry-After', { method: 'POST', path: '/refused', body: {} }],
    ['204 with no body', { method: 'DELETE', path: '/nothing' }],
    ['an answer that is not JSON', { method: 'GET', path: '/not-json' }],
  ];
  for (const [name, request] of cases) {
    it(`${name}: the same answer or error, and the server got the same request`, async () => {
      received.length = 0;
      const viaUndici = await outcome(url, fetch, request);
      const viaNode = await outcome(url, nodeHttpFetch, request);
      expect(viaNode).toEqual(viaUndici);
      expect(received).toHaveLength(2);
      expect(received[1]).toEqual(received[0]);
    });
  }

  it('a port where nothing listens and a server that never answers: the same errors', async () => {
    for (const [baseUrl, request, timeoutMs] of [
      [closedUrl, { method: 'GET', path: '/anything' }, undefined],
      [url, { method: 'GET', path: '/silent' }, 300],
    ] as Array<[string, HttpRequest, number | undefined]>) {
      const viaUndici = await outcome(baseUrl, fetch, request, timeoutMs);
      const viaNode = await outcome(baseUrl, nodeHttpFetch, request, timeoutMs);
      expect(viaNode).toEqual(viaUndici);
      expect(viaNode).toHaveProperty('error');
    }
  });

  it('an answer cut before its end: a NetworkError from both, each naming its socket error (undici calls it UND_ERR_SOCKET, node:http ECONNRESET)', async () => {
    const request: HttpRequest = { method: 'GET', path: '/cut' };
    const viaUndici = await outcome(url, fetch, request);
    const viaNode = await outcome(url, nodeHttpFetch, request);
    expect(viaUndici).toMatchObject({ error: 'NetworkError', message: 'GET /cut failed before an answer arrived (UND_ERR_SOCKET).' });
    expect(viaNode).toMatchObject({ error: 'NetworkError', message: 'GET /cut failed before an answer arrived (ECONNRESET).' });
  });

  it('the simulator answers both alike: a catalog page, a refused key, a validation refusal', async () => {
    const key = sim.demo[0].secret;
    for (const [request, withKey] of [
      [{ method: 'GET', path: '/v1/public/agents', query: { limit: 2 }, credential: 'none' }, false],
      [{ method: 'GET', path: '/v1/buyer/key' }, false],
      [{ method: 'POST', path: '/v1/custody/quotes', body: { listingId: 'not-a-uuid' } }, true],
    ] as Array<[HttpRequest, boolean]>) {
      const make = (f: typeof fetch) => createHttp({ baseUrl: simUrl, ...(withKey ? { key } : {}), fetch: f, retry: { retries: 0, baseDelayMs: 1, maxRetryAfterMs: 1, sleep: async () => undefined } });
      const read = async (f: typeof fetch) => make(f).send<unknown>(request).then((r) => ({ status: r.status, body: r.body }), (e: Error & { status?: number; code?: string }) => ({ status: e.status, code: e.code, message: e.message }));
      expect(await read(nodeHttpFetch)).toEqual(await read(fetch));
    }
  });

  it('refuses an https:// address rather than sending it in the clear', async () => {
    await expect(nodeHttpFetch('https://example.test/v1/buyer/key')).rejects.toThrow('nodeHttpFetch sends http:// only, not https:');
  });
});
