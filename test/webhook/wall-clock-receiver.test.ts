import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/cli.ts';
import { ALICE, BOB, EPOCH_S, advance, cleanupAfterEach, createDestination, createMonitor, ethKey, mine, simDeliveries, start, subscribe, transfer, verify, waitFor } from '../monitors/support.ts';

/**
 * A receiver written to spec 6.2 and nothing else: node:crypto for the HMAC,
 * Date.now() for its clock. The simulator's clock is frozen at 2026-01-01 and
 * moved on by a day, far from the wall clock; by default (serve --webhook-time
 * wall) each attempt is signed with the real time it is sent, so the receiver
 * verifies the ownership challenge and a monitor delivery, while the payload
 * and the delivery log keep simulated time. With --webhook-time simulated the
 * same receiver refuses, as it should: the timestamp is a year off its clock.
 */

cleanupAfterEach();

interface Seen {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  receivedAtSeconds: number;
  verdict: 'verified' | 'bad-signature' | 'stale-or-future';
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Spec 6.2's receiver rules: v1= hex HMAC-SHA256 of `<timestamp>.<event id>.<raw body>`, compared in constant time; the timestamp within 5 minutes of now. */
async function specReceiver(secretOf: () => string): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const nowSeconds = Math.floor(Date.now() / 1000);
      const timestamp = String(req.headers['x-service-timestamp']);
      const eventId = String(req.headers['x-service-event-id']);
      const expected = Buffer.from(`v1=${createHmac('sha256', secretOf()).update(`${timestamp}.${eventId}.${raw}`).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-service-signature']));
      const body = JSON.parse(raw) as Record<string, unknown>;
      const signed = expected.length === given.length && timingSafeEqual(expected, given);
      const fresh = Math.abs(Number(timestamp) - nowSeconds) <= 300;
      const verdict = !signed ? 'bad-signature' : !fresh ? 'stale-or-future' : 'verified';
      seen.push({ headers: req.headers, body, receivedAtSeconds: nowSeconds, verdict });
      if (verdict !== 'verified') return void res.writeHead(verdict === 'bad-signature' ? 401 : 400).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body.type === 'service.destination.verification' ? { challenge: body.challenge } : { received: true }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, seen };
}

describe('a receiver judging timestamps by Date.now()', () => {
  it('verifies the ownership challenge and a monitor delivery from a frozen simulator a day on; payload and delivery log keep simulated time', async () => {
    const sim = await start();
    await advance(sim, { seconds: 86_400 });
    const { key, accountId } = ethKey(sim);
    let secret = '';
    const receiver = await specReceiver(() => secret);
    const created = await createDestination(sim, accountId, receiver.url);
    secret = created.signingSecret;

    const verified = (await verify(sim, created.destination.id)).body.destination;
    expect(verified).toMatchObject({ state: 'verified', lastError: null, verifiedAt: '2026-01-02T00:00:00.000Z' });
    const monitor = await createMonitor(sim, key);
    expect((await subscribe(sim, monitor.id, created.destination.id)).status).toBe(201);
    await mine(sim, 'base', [transfer(ALICE, BOB, '5')]);
    await waitFor(() => receiver.seen.length >= 2 || null, 'the monitor delivery');

    expect(receiver.seen.map((s) => [s.body.type, s.verdict])).toEqual([
      ['service.destination.verification', 'verified'],
      ['monitor.event', 'verified'],
    ]);
    for (const s of receiver.seen) expect(Math.abs(Number(s.headers['x-service-timestamp']) - s.receivedAtSeconds)).toBeLessThanOrEqual(5);
    // Simulated time where the simulator's own records are: the event's observedAt and the delivery log.
    expect(receiver.seen[1].body.observedAt).toMatch(/^2026-01-02T00:00:/);
    const log = await simDeliveries(sim);
    expect(log.deliveries.map((d: any) => [d.purpose, d.state])).toEqual([
      ['verification', 'delivered'],
      ['delivery', 'delivered'],
    ]);
    for (const attempt of log.attempts) expect(attempt.time).toMatch(/^2026-01-02T00:00:/);
    for (const delivery of log.deliveries) expect(delivery.attempts[0].at).toMatch(/^2026-01-02T00:00:/);
  });

  it("with webhookTime 'simulated' the timestamp is the simulated clock's, and the same receiver refuses the challenge", async () => {
    const sim = await start({ webhookTime: 'simulated' });
    let secret = '';
    const receiver = await specReceiver(() => secret);
    const created = await createDestination(sim, ethKey(sim).accountId, receiver.url);
    secret = created.signingSecret;
    const destination = (await verify(sim, created.destination.id)).body.destination;
    expect(destination).toMatchObject({ state: 'needs_verification', lastError: 'http-400' });
    expect(receiver.seen.map((s) => [s.headers['x-service-timestamp'], s.verdict])).toEqual([[String(EPOCH_S), 'stale-or-future']]);
  });
});

describe('serve --webhook-time', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    // Each serve flushes its store as it stops: wait for that before its folder goes.
    for (const child of children.splice(0)) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  /** `serve --clock frozen` with `extra` flags; its URL once it listens. */
  async function serve(extra: string[]): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-webhook-time-'));
    dirs.push(dir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--clock', 'frozen', '--store', join(dir, 'store.json'), ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    return waitFor(() => /understudy listening on (http:\/\/\S+)/.exec(output)?.[1] ?? null, 'serve to listen');
  }

  /** The timestamp the challenge of a new destination was signed with. */
  async function challengeTimestamp(url: string): Promise<number> {
    const receiver = await specReceiver(() => 'whsec_any');
    const accounts = (await (await fetch(`${url}/sim/accounts`)).json()) as { accounts: Array<{ id: string }> };
    const created = await fetch(`${url}/sim/accounts/${accounts.accounts[0].id}/destinations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url }) });
    const { destination } = (await created.json()) as { destination: { id: string } };
    await fetch(`${url}/sim/destinations/${destination.id}/verify`, { method: 'POST' });
    return Number(receiver.seen[0].headers['x-service-timestamp']);
  }

  it('signs with the real time by default, and with the frozen simulated clock given simulated; a bad value is refused', async () => {
    const wall = await challengeTimestamp(await serve([]));
    expect(Math.abs(wall - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(5);
    expect(await challengeTimestamp(await serve(['--webhook-time', 'simulated']))).toBe(EPOCH_S);
    const refused = await cli(['serve', '--port', '0', '--webhook-time', 'sim'], ROOT);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe("--webhook-time must be one of wall, simulated (got 'sim').\n");
  });
});
