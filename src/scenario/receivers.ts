import { lookup } from 'node:dns/promises';
import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * Local webhook receivers a scenario declares: they answer as scripted and
 * record what arrives. A receiver is addressed as http://localhost:PORT/NAME,
 * the URL a developer types first, so every scenario with a receiver also
 * exercises delivery to a host name (resolved, every address checked).
 */
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

const HOST = 'localhost';
const PORT_ATTEMPTS = 5;

function listenOn(handler: RequestListener, address: string, port: number): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve(server));
  });
}

const closeAll = (servers: Server[]) =>
  Promise.all(
    servers.map((s) => {
      // The sender's agent keeps connections alive; they would hold close() for seconds.
      s.closeAllConnections();
      return new Promise<void>((resolve) => s.close(() => resolve()));
    }),
  );

/**
 * One port on every address localhost resolves to (127.0.0.1, and ::1 where
 * the system lists it), so a sender reaches the receiver whichever it tries.
 */
async function listenOnLocalhost(handler: RequestListener): Promise<{ port: number; servers: Server[] }> {
  const addresses = [...new Set((await lookup(HOST, { all: true })).map((a) => a.address))];
  for (let attempt = 1; ; attempt += 1) {
    const first = await listenOn(handler, addresses[0], 0);
    const port = (first.address() as { port: number }).port;
    const servers = [first];
    try {
      for (const address of addresses.slice(1)) servers.push(await listenOn(handler, address, port));
      return { port, servers };
    } catch (error) {
      // The port was free on one address but taken on another: try another port.
      await closeAll(servers);
      if (attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

export async function startReceiver(name: string, spec: { answers?: number[]; echoChallenge?: boolean }): Promise<ScenarioReceiver> {
  const received: Received[] = [];
  const answers = spec.answers ?? [200];
  let deliveries = 0;
  const handler: RequestListener = (req, res) => {
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
  };
  const { port, servers } = await listenOnLocalhost(handler);
  return { name, url: `http://${HOST}:${port}/${name}`, received, close: async () => void (await closeAll(servers)) };
}
