import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local webhook receiver in the benchmark's own process (a core apart from the simulator's child). */
export interface Receiver {
  server: Server;
  url: string;
  /** Deliveries received, ownership challenges not counted. */
  deliveries(): number;
  close(): Promise<void>;
}

/** Answers every delivery 200, echoing an ownership challenge; counts what it got. */
export async function startReceiver(): Promise<Receiver> {
  let deliveries = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as { type?: string; challenge?: string } | null;
      const challenge = body?.type === 'service.destination.verification' ? body.challenge : undefined;
      if (challenge === undefined) deliveries += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(challenge === undefined ? { received: true } : { challenge }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/inbox`,
    deliveries: () => deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
