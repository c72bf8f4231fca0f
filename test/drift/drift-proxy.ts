import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';

/** An answer as the proxy passes it on; a drift may change any part of it. */
export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A known drift: which requests it touches, and what it does to their answers. */
export interface Drift {
  name: string;
  matches(method: string, url: URL): boolean;
  apply(answer: ProxiedAnswer): ProxiedAnswer;
}

/**
 * A small HTTP proxy in front of a simulator playing the service: it passes
 * every request through unchanged and changes the answers of the requests a
 * drift matches, so a test knows in advance every way the "service" differs.
 */
export async function startDriftProxy(upstream: string, drifts: Drift[]): Promise<{ url: string; applied: string[]; close(): Promise<void> }> {
  const target = new URL(upstream);
  const applied: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const url = new URL(req.url ?? '/', 'http://proxy');
          let out: ProxiedAnswer = { status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(body).toString('utf8') };
          for (const drift of drifts) {
            if (!drift.matches(req.method ?? 'GET', url)) continue;
            out = drift.apply(out);
            applied.push(drift.name);
          }
          const headers = { ...out.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          delete headers.connection;
          delete headers['keep-alive'];
          res.writeHead(out.status, { ...headers, 'content-length': Buffer.byteLength(out.body) });
          res.end(out.body);
        });
      });
      forward.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    applied,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A drift that rewrites a JSON answer. */
export const jsonDrift = (name: string, matches: Drift['matches'], change: (body: any) => void, extra: Partial<ProxiedAnswer> = {}): Drift => ({
  name,
  matches,
  apply: (answer) => {
    const body = JSON.parse(answer.body);
    change(body);
    return { ...answer, ...extra, body: JSON.stringify(body) };
  },
});
