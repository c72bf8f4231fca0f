import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * The fetch the scenario runner hands the client (createHttp, through wire.ts),
 * sent over node:http instead of undici. It lives here, not in src/client,
 * which runs on fetch alone. A scenario makes about 60
 * calls to a simulator in its own process, and undici's fetch (its web
 * streams, abort signals and body mixins around each exchange) cost more than
 * the simulator answering many of them. Measured 2026-11-28 on a quiet 2-core
 * machine, all 25 shipped scenarios in one `understudy scenario`: 2,207 ms
 * through fetch, 1,930–1,979 ms through this (npm run bench -- scenarios).
 *
 * Only what createHttp uses: http URLs, a method, headers as a plain object, a
 * string body and an abort signal. Failures reach the caller as fetch's do (a
 * TypeError whose `cause` is the socket's error), so NetworkError and
 * RequestTimeoutError read them alike.
 */
const agent = new Agent({ keepAlive: true });

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

export const nodeHttpFetch: typeof fetch = (input, init) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'http:') return reject(new TypeError(`nodeHttpFetch sends http:// only, not ${url.protocol}`));
    const failed = (cause: unknown) => reject(new TypeError('fetch failed', { cause }));
    const options = { method: init?.method ?? 'GET', headers: (init?.headers ?? {}) as Record<string, string>, agent, ...(init?.signal ? { signal: init.signal } : {}) };
    const req = httpRequest(url, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', failed);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const headers = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        resolve(new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers }));
      });
    });
    req.on('error', failed);
    req.end(init?.body === undefined || init.body === null ? undefined : String(init.body));
  });
