import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Shared helpers of the monitors suite (not a test file). */

export const EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');
export const EPOCH_S = EPOCH_MS / 1000;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Addresses used across the suite (lower case; logs are sent in mixed case on purpose in places). */
export const TOKEN = `0x${'a1'.repeat(20)}`;
export const OTHER_TOKEN = `0x${'b2'.repeat(20)}`;
export const ALICE = `0x${'c3'.repeat(20)}`;
export const BOB = `0x${'d4'.repeat(20)}`;
export const CAROL = `0x${'e5'.repeat(20)}`;

// ---------------------------------------------------------------------------
// Simulators: started per test, destroyed after it.

const running: TestSimulator[] = [];
const receivers: Receiver[] = [];

export async function start(options: Parameters<typeof startSimulator>[0] = {}): Promise<TestSimulator> {
  const sim = await startSimulator(options);
  running.push(sim);
  return sim;
}

/** Registers the cleanup of simulators and receivers for a test file. */
export function cleanupAfterEach(): void {
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
    for (const sim of running.splice(0)) await sim.destroy();
  });
}

/** The demo EVM account's ETH key (monitors:read and monitors:write) and its account id. */
export function ethKey(sim: TestSimulator): { key: string; accountId: string } {
  const demo = sim.demo.find((d) => d.profile === 'local_custody')!;
  return { key: demo.secret, accountId: demo.accountId };
}

// ---------------------------------------------------------------------------
// Monitor bodies and calls.

let idemCounter = 0;
export function idem(): string {
  idemCounter += 1;
  return `idem-${process.pid}-${idemCounter}`;
}

export function transferRule(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'transfers', type: 'erc20-transfer', token: TOKEN, ...extra };
}

/** A valid creation body: one erc20-transfer rule on base, windows of one block. */
export function monitorBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Token transfers',
    chain: 'base',
    rules: [transferRule()],
    durationSeconds: 3600,
    tickBudget: 10_000,
    rpcBudget: 100_000,
    idempotencyKey: idem(),
    windowBlocks: 1,
    ...overrides,
  };
}

export async function createMonitor(sim: TestSimulator, key: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const response = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody(overrides) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.monitor;
}

export async function detail(sim: TestSimulator, key: string, monitorId: string): Promise<any> {
  const response = await sim.json({ url: `/v1/monitors/${monitorId}`, key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export async function notifications(sim: TestSimulator, key: string): Promise<any[]> {
  const response = await sim.json({ url: '/v1/notifications', key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.notifications;
}

export interface Log {
  address: string;
  event: string;
  args: Record<string, string>;
  transactionHash?: string;
}

export function transfer(from: string, to: string, value: string, token = TOKEN): Log {
  return { address: token, event: 'Transfer', args: { from, to, value } };
}

/** POST /sim/chains/{chain}/blocks. */
export async function mine(sim: TestSimulator, chain: string, logs: Log[] = [], count?: number): Promise<{ blocks: Array<{ number: string; hash: string }>; logs: any[] }> {
  const response = await sim.json({ method: 'POST', url: `/sim/chains/${chain}/blocks`, body: count === undefined ? { logs } : { logs, count } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export async function reorg(sim: TestSimulator, chain: string, depth: number, logs?: Log[]): Promise<{ removed: any[]; blocks: Array<{ number: string; hash: string }> }> {
  const response = await sim.json({ method: 'POST', url: `/sim/chains/${chain}/reorg`, body: logs ? { depth, logs } : { depth } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export async function advance(sim: TestSimulator, body: Record<string, unknown>): Promise<{ now: string; processed: Array<{ kind: string; ref: string; at: string }> }> {
  const response = await sim.json({ method: 'POST', url: '/sim/clock/advance', body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

export async function nowSeconds(sim: TestSimulator): Promise<number> {
  const response = await sim.json({ url: '/sim/clock' });
  return Math.floor(Date.parse(response.body.now) / 1000);
}

export async function chainHead(sim: TestSimulator, chain: string): Promise<{ head: string; headHash: string; cadenceMs: number }> {
  const response = await sim.json({ url: `/sim/chains/${chain}` });
  expect(response.status).toBe(200);
  return response.body;
}

// ---------------------------------------------------------------------------
// A real loopback receiver whose answers the test scripts.

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
  json: any;
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang';
export type Responder = (request: Received) => Answer;

/** 200 to everything, echoing an ownership challenge. */
export const echoing: Responder = (r) => (r.json?.type === 'service.destination.verification' ? { status: 200, body: { challenge: r.json.challenge } } : { status: 200, body: { ok: true } });
/** Echoes challenges, then answers deliveries with `status`. */
export const echoThen =
  (status: number, headers?: Record<string, string>): Responder =>
  (r) =>
    r.json?.type === 'service.destination.verification' ? { status: 200, body: { challenge: r.json.challenge } } : { status, body: { status }, headers };

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests other than ownership challenges. */
  deliveries(): Received[];
  respond: Responder;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = echoing): Promise<Receiver> {
  const held: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    deliveries: () => receiver.received.filter((r) => r.json?.type !== 'service.destination.verification'),
    respond,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let json: any = null;
      try {
        json = JSON.parse(raw);
      } catch {
        json = null;
      }
      const record: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, json };
      receiver.received.push(record);
      const answer = receiver.respond(record);
      if (answer === 'hang') {
        held.push(res);
        return;
      }
      const body = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receivers.push(receiver);
  return receiver;
}

export { waitFor } from '../helpers/wait.ts';

/** The test's own HMAC of spec 6.2, independent of the simulator's signing code. */
export function expectedSignature(secret: string, timestamp: string, eventId: string, raw: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${eventId}.${raw}`).digest('hex')}`;
}

// ---------------------------------------------------------------------------
// Destinations.

export async function createDestination(sim: TestSimulator, accountId: string, url: string): Promise<{ destination: any; signingSecret: string }> {
  const response = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export async function verify(sim: TestSimulator, destinationId: string): Promise<{ status: number; body: any }> {
  return sim.json({ method: 'POST', url: `/sim/destinations/${destinationId}/verify` });
}

export async function subscribe(sim: TestSimulator, monitorId: string, destinationId: string): Promise<{ status: number; body: any }> {
  return sim.json({ method: 'POST', url: `/sim/monitors/${monitorId}/subscriptions`, body: { destinationId } });
}

/**
 * A verified destination on a fresh receiver, a transfer monitor of the demo
 * ETH key and a subscription: the usual starting point of delivery tests.
 */
export async function deliverySetup(sim: TestSimulator, respond: Responder = echoing) {
  const { key, accountId } = ethKey(sim);
  const receiver = await startReceiver(respond);
  const { destination, signingSecret } = await createDestination(sim, accountId, receiver.url);
  const verified = await verify(sim, destination.id);
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  expect(verified.body.destination.state).toBe('verified');
  const monitor = await createMonitor(sim, key);
  const subscribed = await subscribe(sim, monitor.id, destination.id);
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
  return { key, accountId, receiver, destination, signingSecret, monitor };
}

export async function simDeliveries(sim: TestSimulator): Promise<{ attempts: any[]; deliveries: any[] }> {
  const response = await sim.json({ url: '/sim/deliveries?limit=1000' });
  expect(response.status).toBe(200);
  return response.body;
}

export async function destinationState(sim: TestSimulator, id: string): Promise<any> {
  const response = await sim.json({ url: `/sim/destinations/${id}` });
  expect(response.status).toBe(200);
  return response.body.destination;
}
