import { lookup } from 'node:dns/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebhook } from '../../sim/runtime/webhook-sender.ts';
import { startReceiver as startScenarioReceiver } from '../../src/scenario/receivers.ts';
import { verifyDelivery } from '../../src/webhook/verify.ts';
import { ALICE, BOB, cleanupAfterEach, createDestination, createMonitor, ethKey, mine, start, startReceiver, subscribe, transfer, verify, waitFor } from '../monitors/support.ts';

/**
 * Point 1 of issue 13: a destination addressed by a host name (localhost, the
 * first URL a developer types) must deliver, with every address the name
 * resolves to checked before a socket connects.
 */
cleanupAfterEach();

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A TCP server on 127.0.0.1 that counts connections and drops them. */
async function countingServer(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket: Socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { port: (server.address() as { port: number }).port, connections: () => count };
}

const request = { headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}', timeoutMs: 5000 };

describe('deliveries to a host name', () => {
  it('test environment: a destination at http://localhost:PORT is verified and receives a signed monitor event', async () => {
    const sim = await start();
    const { key, accountId } = ethKey(sim);
    const receiver = await startReceiver();
    const url = `http://localhost:${new URL(receiver.url).port}/hooks`;
    const { destination, signingSecret } = await createDestination(sim, accountId, url);
    const verified = await verify(sim, destination.id);
    expect(verified.body.destination, JSON.stringify(verified.body)).toMatchObject({ url, state: 'verified', lastError: null });
    const monitor = await createMonitor(sim, key);
    expect((await subscribe(sim, monitor.id, destination.id)).status).toBe(201);
    await mine(sim, 'base', [transfer(ALICE, BOB, '5')]);
    await waitFor(() => receiver.deliveries().length === 1, 'the delivery to localhost');
    const [delivery] = receiver.deliveries();
    expect(delivery.headers.host).toBe(`localhost:${new URL(receiver.url).port}`);
    const now = Number(delivery.headers['x-service-timestamp']);
    expect(verifyDelivery(delivery.headers, delivery.raw, { secret: signingSecret, nowSeconds: now })).toMatchObject({ ok: true, payload: { type: 'monitor.event' } });
  });

  it('the sender answers the lookup in the form the socket asks for: a named host is reached over http and https', async () => {
    const target = await countingServer();
    const allowAll = () => null;
    const answered = await startReceiver();
    const named = `http://localhost:${new URL(answered.url).port}/hooks`;
    expect(await sendWebhook({ ...request, url: named, addressPolicy: allowAll })).toEqual({ kind: 'answered', status: 200, body: JSON.stringify({ ok: true }) });
    // No certificate here: the TLS handshake fails, but only after the name was resolved and a socket connected.
    const https = await sendWebhook({ ...request, url: `https://localhost:${target.port}/hooks`, addressPolicy: allowAll });
    expect(https.kind).toBe('failed');
    expect(https).not.toEqual({ kind: 'failed', error: 'connection-failed: ERR_INVALID_IP_ADDRESS' });
    expect(target.connections()).toBe(1);
  });

  it('every address the name resolves to is judged, and one refusal refuses the name before any socket connects', async () => {
    const target = await countingServer();
    const resolved = (await lookup('localhost', { all: true })).map((a) => a.address);
    const judged: string[] = [];
    const url = `http://localhost:${target.port}/hooks`;
    const recordAll = (address: string) => (judged.push(address), null);
    await sendWebhook({ ...request, url, addressPolicy: recordAll });
    expect([...new Set(judged)].sort()).toEqual([...new Set(resolved)].sort());
    const connectionsBefore = target.connections();
    // Refusing only the last address listed refuses the whole name: the socket might have tried any of them.
    const last = resolved[resolved.length - 1];
    const refuseLast = (address: string) => (address === last ? 'private-address-refused' : null);
    expect(await sendWebhook({ ...request, url, addressPolicy: refuseLast })).toEqual({ kind: 'refused', error: 'private-address-refused' });
    expect(target.connections()).toBe(connectionsBefore);
  });

  it('a name that does not resolve is a failed (retried) attempt, not a refusal', async () => {
    const result = await sendWebhook({ ...request, url: 'https://no-such-host.invalid/hooks', addressPolicy: () => null });
    expect(result).toEqual({ kind: 'failed', error: expect.stringMatching(/^connection-failed: (ENOTFOUND|EAI_AGAIN)$/) });
  });
});

describe('scenario receivers', () => {
  it('are addressed as http://localhost:PORT/NAME and answer on every address localhost resolves to', async () => {
    const receiver = await startScenarioReceiver('r', { answers: [202] });
    try {
      const url = new URL(receiver.url);
      expect(url.hostname).toBe('localhost');
      expect(url.pathname).toBe('/r');
      const addresses = [...new Set((await lookup('localhost', { all: true })).map((a) => a.address))];
      for (const address of addresses) {
        const host = address.includes(':') ? `[${address}]` : address;
        const answer = await fetch(`http://${host}:${url.port}/r`, { method: 'POST', body: '{"type":"monitor.event"}' });
        expect(answer.status, address).toBe(202);
      }
      expect(receiver.received).toHaveLength(addresses.length);
    } finally {
      await receiver.close();
    }
  });
});
