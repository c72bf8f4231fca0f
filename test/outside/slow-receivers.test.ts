import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { ALICE, BOB, advance, cleanupAfterEach, createDestination, createMonitor, ethKey, mine, simDeliveries, start, subscribe, transfer, verify } from '../monitors/support.ts';

/**
 * Issue 13, point 7: webhook attempts due at the same instant wait on their
 * receivers together (at most 8 at once), so one slow receiver no longer
 * holds up an advance for 5 s per delivery; the answers are still recorded in
 * job order, so the store does not depend on which receiver answers first.
 */

cleanupAfterEach();

/** How long a held request waits for the others before it is answered anyway (a serial sender would otherwise never be answered). */
const PATIENCE_MS = 1_000;

interface Gate {
  url: string;
  /** The most delivery requests seen open at once. */
  maxOpen: number;
  /**
   * From now on, holds deliveries until `size` are open together, then answers
   * them `status`, one by one in `order` of arrival.
   */
  arm(size: number, status: number, order: 'arrival' | 'reverse'): void;
  close(): Promise<void>;
}

/** One loopback receiver behind several destination URLs (/d0, /d1, ...); it answers ownership challenges at once. */
async function startGate(): Promise<Gate> {
  let size = 0;
  let status = 500;
  let order: 'arrival' | 'reverse' = 'arrival';
  const open: Array<{ res: ServerResponse; timer: NodeJS.Timeout }> = [];
  const answer = (entry: (typeof open)[number]) => {
    clearTimeout(entry.timer);
    const index = open.indexOf(entry);
    if (index < 0) return;
    open.splice(index, 1);
    entry.res.writeHead(status, { 'content-type': 'application/json', ...(status === 302 ? { location: 'http://127.0.0.1:9/elsewhere' } : {}) }).end(JSON.stringify({ status }));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (json.type === 'service.destination.verification') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge: json.challenge }));
        return;
      }
      if (size === 0) {
        res.writeHead(status).end();
        return;
      }
      const entry = { res, timer: setTimeout(() => answer(entry), PATIENCE_MS) };
      open.push(entry);
      gate.maxOpen = Math.max(gate.maxOpen, open.length);
      if (open.length === size) {
        const batch = order === 'reverse' ? [...open].reverse() : [...open];
        // Spaced out so the simulator really gets the answers in this order.
        batch.forEach((held, i) => setTimeout(() => answer(held), i * 25));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const gate: Gate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    maxOpen: 0,
    arm(nextSize, nextStatus, nextOrder) {
      size = nextSize;
      status = nextStatus;
      order = nextOrder;
    },
    async close() {
      for (const entry of open.splice(0)) clearTimeout(entry.timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return gate;
}

const gates: Gate[] = [];
afterEach(async () => {
  for (const gate of gates.splice(0)) await gate.close();
});

async function gate(): Promise<Gate> {
  const g = await startGate();
  gates.push(g);
  return g;
}

/**
 * `count` verified destinations on the gate, all subscribed to one monitor; a
 * mined transfer makes their first attempts, answered 500 at once, so that the
 * second attempts all fall due 5 s later, at one instant.
 */
async function retriesDueTogether(sim: TestSimulator, g: Gate, count: number): Promise<void> {
  const { key, accountId } = ethKey(sim);
  const monitor = await createMonitor(sim, key, { idempotencyKey: 'slow-receivers-monitor' });
  for (let i = 0; i < count; i += 1) {
    const { destination } = await createDestination(sim, accountId, `${g.url}/d${i}`);
    expect((await verify(sim, destination.id)).body.destination.state).toBe('verified');
    expect((await subscribe(sim, monitor.id, destination.id)).status).toBe(201);
  }
  g.arm(0, 500, 'arrival');
  await mine(sim, 'base', [transfer(ALICE, BOB, '7')]);
  expect((await monitorDeliveries(sim)).map((d) => d.attempts.length)).toEqual(Array(count).fill(1));
}

/** The event deliveries (not the ownership challenges). */
async function monitorDeliveries(sim: TestSimulator): Promise<any[]> {
  return (await simDeliveries(sim)).deliveries.filter((d) => d.purpose === 'delivery');
}

describe('webhook attempts due at the same instant', () => {
  it('are all open at their receivers before any is answered, within one advance', async () => {
    const sim = await start();
    const g = await gate();
    await retriesDueTogether(sim, g, 4);

    g.arm(4, 200, 'arrival');
    const advanced = await advance(sim, { seconds: 5 });

    expect(advanced.processed.filter((p) => p.kind === 'delivery.attempt')).toHaveLength(4);
    expect(g.maxOpen).toBe(4);
    expect((await monitorDeliveries(sim)).map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  it('never have more than 8 open at once; the rest go out as the first are answered', async () => {
    const sim = await start();
    const g = await gate();
    await retriesDueTogether(sim, g, 10);

    g.arm(8, 200, 'arrival');
    await advance(sim, { seconds: 5 });

    expect(g.maxOpen).toBe(8);
    expect((await monitorDeliveries(sim)).filter((d) => d.state === 'delivered')).toHaveLength(10);
  });

  it('are recorded in job order whatever order the receivers answer in: the same store byte for byte', async () => {
    const g = await gate();
    const snapshots: string[] = [];
    for (const order of ['arrival', 'reverse'] as const) {
      const sim = await start({ seed: 'slow-receivers' });
      await retriesDueTogether(sim, g, 4);
      // A redirect fails each delivery for good: the record step draws a notification id and sequence number.
      g.arm(4, 302, order);
      await advance(sim, { seconds: 5 });
      expect((await monitorDeliveries(sim)).map((d) => d.state)).toEqual(['failed', 'failed', 'failed', 'failed']);
      snapshots.push((await sim.request({ url: '/sim/snapshot' })).body);
    }
    expect(g.maxOpen).toBe(4);
    const differsAt = [...snapshots[0]].findIndex((c, i) => snapshots[1][i] !== c);
    expect(snapshots[1].length === snapshots[0].length && differsAt === -1, `snapshots differ at ${differsAt}: ${snapshots[1].slice(differsAt - 200, differsAt + 200)}`).toBe(true);
  });
});
