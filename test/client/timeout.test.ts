import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttp } from '../../src/client/http.ts';
import { createClient, DEFAULT_RETRY, isClientError, NetworkError, RequestTimeoutError } from '../../src/client/index.ts';
import { toDisplayError } from '../../src/tui/state/call.ts';
import { recordingSleep } from './fault-server.ts';

/**
 * Issue 13, point 7: the typed client (used by the console and the scenario
 * runner) gives up on a server that does not answer, after a configurable
 * timeout, with an error that names it.
 */

interface Silent {
  url: string;
  /** Requests received, as "METHOD path". */
  seen: string[];
  close(): Promise<void>;
}

/** A real server that takes every request and never answers it; under /headers-only it sends the status line and headers, then stalls. */
async function startSilentServer(): Promise<Silent> {
  const seen: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    held.push(res);
    if (req.url?.startsWith('/headers-only')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"now":');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: Silent;
beforeAll(async () => {
  server = await startSilentServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.seen.length = 0;
});

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('the call answered');
    },
    (error: unknown) => error,
  );
}

// Timeouts of a second, not less: on a loaded machine (two cores, parallel test files) a shorter
// one can run out before the silent server has even accepted the request that the test counts.
describe('a client timeout', () => {
  it('ends a call the server never answers with an error naming the limit, which the console shows', async () => {
    const client = createClient({ baseUrl: server.url, timeoutMs: 1000, retries: 0 });
    const error = await failure(client.sim.clock());

    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isClientError(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 1000, method: 'GET', path: '/sim/clock', code: 'network_error' });
    const message = "GET /sim/clock got no answer within 1000 ms (the client's timeoutMs) and was abandoned; the server may still complete it.";
    expect((error as Error).message).toBe(message);
    expect(toDisplayError(error)).toMatchObject({ code: 'network_error', message, status: null });
    expect(server.seen).toEqual(['GET /sim/clock']);
  });

  it('covers the body too: headers sent, then silence', async () => {
    const client = createClient({ baseUrl: `${server.url}/headers-only`, timeoutMs: 1000, retries: 0 });
    const error = await failure(client.sim.clock());
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(server.seen).toEqual(['GET /headers-only/sim/clock']);
  });

  it('applies to each attempt: a GET is retried like any network failure, a clock advance is not', async () => {
    const { sleep, waits } = recordingSleep();
    const client = createClient({ baseUrl: server.url, timeoutMs: 1000, sleep });
    expect(await failure(client.v1.listAgents())).toBeInstanceOf(RequestTimeoutError);
    expect(server.seen).toEqual(['GET /v1/public/agents', 'GET /v1/public/agents', 'GET /v1/public/agents']);
    expect(waits).toEqual([250, 500]);

    server.seen.length = 0;
    expect(await failure(client.sim.advance({ seconds: 10 }))).toBeInstanceOf(RequestTimeoutError);
    expect(server.seen).toEqual(['POST /sim/clock/advance']);
  });

  it('is on by default, also for the scenario runner, which builds its HTTP layer directly', async () => {
    const signals: Array<AbortSignal | null | undefined> = [];
    const recording: typeof fetch = async (_input, init) => {
      signals.push(init?.signal);
      return new Response('{"now":"2026-01-01T00:00:00.000Z","mode":"frozen"}', { status: 200 });
    };
    await createClient({ baseUrl: server.url, fetch: recording }).sim.clock();
    await createHttp({ baseUrl: server.url, fetch: recording, retry: DEFAULT_RETRY }).send({ method: 'GET', path: '/sim/clock', credential: 'control' });
    expect(signals).toHaveLength(2);
    for (const signal of signals) {
      expect(signal).toBeInstanceOf(AbortSignal);
      expect(signal!.aborted).toBe(false);
    }
  });

  it('must be a whole number of milliseconds from 1 up', () => {
    for (const timeoutMs of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => createClient({ baseUrl: server.url, timeoutMs }), String(timeoutMs)).toThrow(/^timeoutMs must be a whole number of milliseconds from 1 to 2147483647/);
    }
  });
});
