import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that answers each path from a script:
 * the n-th request to a path gets the n-th scripted answer (the last one
 * repeats). 'destroy' drops the connection without answering.
 */
export type ScriptedAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | 'destroy';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without '?', as sent. */
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FaultServer {
  url: string;
  requests: RecordedRequest[];
  script(path: string, answers: ScriptedAnswer[]): void;
  requestsTo(path: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFaultServer(): Promise<FaultServer> {
  const scripts = new Map<string, ScriptedAnswer[]>();
  const served = new Map<string, number>();
  const requests: RecordedRequest[] = [];

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const [path, query = ''] = (request.url ?? '/').split('?');
      requests.push({ method: request.method ?? '', path, query, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answers = scripts.get(path) ?? [{ status: 404, body: { error: { code: 'not_found', message: 'No route matches this method and path.' } } }];
      const index = served.get(path) ?? 0;
      served.set(path, index + 1);
      const answer = answers[Math.min(index, answers.length - 1)];
      if (answer === 'destroy') {
        request.socket.destroy();
        return;
      }
      const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(path, answers) {
      scripts.set(path, answers);
      served.set(path, 0);
    },
    requestsTo: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An injected sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

export const errorBody = (code: string, message: string) => ({ error: { code, message } });
