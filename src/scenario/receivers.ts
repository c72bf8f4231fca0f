import { createServer, type Server } from 'node:http';

/** Local webhook receivers a scenario declares: they answer as scripted and record what arrives. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  type: string | null;
  answered: number;
}

export interface ScenarioReceiver {
  name: string;
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(name: string, spec: { answers?: number[]; echoChallenge?: boolean }): Promise<ScenarioReceiver> {
  const received: Received[] = [];
  const answers = spec.answers ?? [200];
  let deliveries = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let parsed: { type?: string; challenge?: string } = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = {};
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      if (parsed.type === 'service.destination.verification') {
        const echo = spec.echoChallenge ?? true;
        received.push({ headers, body, type: parsed.type, answered: 200 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo ? { challenge: parsed.challenge } : { ok: true }));
        return;
      }
      const status = answers[Math.min(deliveries, answers.length - 1)];
      deliveries += 1;
      received.push({ headers, body, type: parsed.type ?? null, answered: status });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { name, url: `http://127.0.0.1:${port}/${name}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
