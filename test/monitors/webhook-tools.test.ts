import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../helpers/simulator.ts';
import { probeReceiver } from '../../src/webhook/probe.ts';
import { createReceiver, type ReceivedDelivery } from '../../src/webhook/receiver.ts';
import { signDelivery, verifyDelivery, type VerifyOptions } from '../../src/webhook/verify.ts';
import { ALICE, BOB, advance, cleanupAfterEach, createDestination, createMonitor, ethKey, expectedSignature, mine, start, subscribe, transfer, verify, waitFor } from './support.ts';

/** The receiver tools of src/webhook: verifyDelivery, createReceiver, probeReceiver, and the CLI. */

cleanupAfterEach();

const SECRET = 'whsec_test-secret-for-the-receiver-tools-000000';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Headers signed by the test's own HMAC, not the library's. */
function signed(body: string, options: { secret?: string; eventId?: string; timestamp?: number } = {}): Record<string, string> {
  const eventId = options.eventId ?? randomUUID();
  const timestamp = String(options.timestamp ?? NOW);
  return {
    'content-type': 'application/json',
    'x-service-signature': expectedSignature(options.secret ?? SECRET, timestamp, eventId, body),
    'x-service-event-id': eventId,
    'x-service-timestamp': timestamp,
    'user-agent': 'service-destination/0.1',
  };
}

const BODY = JSON.stringify({ type: 'monitor.event', eventId: randomUUID(), monitorId: randomUUID(), chain: 'base', status: 'active' });
const options = (extra: Partial<VerifyOptions> = {}): VerifyOptions => ({ secret: SECRET, nowSeconds: NOW, ...extra });

describe('verifyDelivery', () => {
  it('accepts a valid delivery and returns its payload', () => {
    const headers = signed(BODY);
    const verdict = verifyDelivery(headers, BODY, options());
    expect(verdict).toEqual({ ok: true, eventId: headers['x-service-event-id'], timestamp: NOW, payload: JSON.parse(BODY), isChallenge: false, duplicate: false });
  });

  it('recognises an ownership challenge', () => {
    const body = JSON.stringify({ type: 'service.destination.verification', destinationId: randomUUID(), challenge: 'abc123' });
    expect(verifyDelivery(signed(body), body, options())).toMatchObject({ ok: true, isChallenge: true, payload: { challenge: 'abc123' } });
  });

  it('agrees with signDelivery, the sender side', () => {
    const eventId = randomUUID();
    expect(signDelivery(SECRET, eventId, NOW, BODY)).toEqual(signed(BODY, { eventId }));
  });

  it('refuses a tampered body', () => {
    const headers = signed(BODY);
    expect(verifyDelivery(headers, BODY.replace('base', 'bass'), options())).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyDelivery(headers, `${BODY}\n`, options())).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a tampered event id or timestamp', () => {
    const headers = signed(BODY);
    expect(verifyDelivery({ ...headers, 'x-service-event-id': randomUUID() }, BODY, options())).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyDelivery({ ...headers, 'x-service-timestamp': String(NOW + 1) }, BODY, options())).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a delivery signed with another secret, or with a malformed signature', () => {
    expect(verifyDelivery(signed(BODY, { secret: 'whsec_other' }), BODY, options())).toMatchObject({ ok: false, reason: 'bad-signature' });
    const headers = signed(BODY);
    const hex = headers['x-service-signature'].slice(3);
    for (const signature of [hex, `v2=${hex}`, `v1=${hex.toUpperCase()}`, `v1=${hex.slice(0, 63)}`, 'v1=', `v1=${hex}00`]) {
      expect(verifyDelivery({ ...headers, 'x-service-signature': signature }, BODY, options()), signature).toMatchObject({ ok: false, reason: 'bad-signature' });
    }
  });

  it('refuses a timestamp more than 5 minutes old; exactly 5 minutes is accepted', () => {
    expect(verifyDelivery(signed(BODY, { timestamp: NOW - 301 }), BODY, options())).toMatchObject({ ok: false, reason: 'stale-timestamp' });
    expect(verifyDelivery(signed(BODY, { timestamp: NOW - 300 }), BODY, options())).toMatchObject({ ok: true });
  });

  it('refuses a timestamp more than 5 minutes ahead; exactly 5 minutes is accepted', () => {
    expect(verifyDelivery(signed(BODY, { timestamp: NOW + 301 }), BODY, options())).toMatchObject({ ok: false, reason: 'future-timestamp' });
    expect(verifyDelivery(signed(BODY, { timestamp: NOW + 300 }), BODY, options())).toMatchObject({ ok: true });
  });

  it('honours a custom tolerance', () => {
    expect(verifyDelivery(signed(BODY, { timestamp: NOW - 61 }), BODY, options({ toleranceSeconds: 60 }))).toMatchObject({ ok: false, reason: 'stale-timestamp' });
  });

  it('marks a repeated event id as a duplicate; a refused delivery does not record its id', () => {
    const seen = new Set<string>();
    const eventId = randomUUID();
    expect(verifyDelivery(signed(BODY, { eventId, secret: 'whsec_wrong' }), BODY, options({ seen }))).toMatchObject({ ok: false });
    expect(seen.size).toBe(0);
    expect(verifyDelivery(signed(BODY, { eventId }), BODY, options({ seen }))).toMatchObject({ ok: true, duplicate: false });
    // A retry: same event id, fresh timestamp and signature.
    expect(verifyDelivery(signed(BODY, { eventId, timestamp: NOW + 5 }), BODY, options({ seen }))).toMatchObject({ ok: true, duplicate: true });
    expect(verifyDelivery(signed(BODY), BODY, options({ seen }))).toMatchObject({ ok: true, duplicate: false });
    expect(seen.size).toBe(2);
  });

  it.each(['x-service-signature', 'x-service-event-id', 'x-service-timestamp'])('refuses a delivery without %s', (name) => {
    const headers: Record<string, string> = signed(BODY);
    delete headers[name];
    expect(verifyDelivery(headers, BODY, options())).toMatchObject({ ok: false, reason: 'missing-headers' });
  });

  it.each(['', 'soon', '-5', '1.5', '1234567890123'])('refuses the timestamp %j as malformed', (timestamp) => {
    const headers = signed(BODY);
    expect(verifyDelivery({ ...headers, 'x-service-timestamp': timestamp }, BODY, options())).toMatchObject({ ok: false, reason: 'missing-headers' });
  });

  it('refuses a correctly signed body that is not JSON', () => {
    expect(verifyDelivery(signed('not json'), 'not json', options())).toMatchObject({ ok: false, reason: 'bad-json' });
  });

  it('takes Node header arrays (the first value)', () => {
    const headers = signed(BODY);
    const arrays = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v, 'ignored']]));
    expect(verifyDelivery(arrays, BODY, options())).toMatchObject({ ok: true });
  });
});

// ---------------------------------------------------------------------------

const servers: Server[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
}

const wallSeconds = () => Math.floor(Date.now() / 1000);

/** A receiver that answers with `answer(verdict)` after running verifyDelivery with `verifyOptions`. */
function customReceiver(answer: (raw: string, headers: Record<string, string | string[] | undefined>) => { status: number; body: unknown }): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { status, body } = answer(Buffer.concat(chunks).toString('utf8'), req.headers);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
}

const CASES = ['valid delivery', 'tampered body', 'wrong secret', 'stale timestamp (6 min old)', 'future timestamp (6 min ahead)', 'repeated event id', 'ownership challenge'];

const passedOf = (cases: Array<{ name: string; passed: boolean }>) => Object.fromEntries(cases.map((c) => [c.name, c.passed]));

describe('probeReceiver', () => {
  it('passes all 7 cases against createReceiver', async () => {
    const got: ReceivedDelivery[] = [];
    const url = await serve(createReceiver({ secret: SECRET, nowSeconds: wallSeconds, onDelivery: (d) => got.push(d) }));
    const cases = await probeReceiver(url, SECRET, wallSeconds());
    expect(cases.map((c) => c.name)).toEqual(CASES);
    for (const c of cases) expect(c.passed, `${c.name}: ${c.detail}`).toBe(true);
    // What the receiver saw, in order.
    expect(got.map((d) => d.verdict)).toEqual(['verified', 'bad-signature', 'bad-signature', 'stale-timestamp', 'future-timestamp', 'duplicate-dropped', 'verified']);
    expect(got.map((d) => d.status)).toEqual([200, 401, 401, 400, 400, 200, 200]);
  });

  it('a receiver that accepts everything fails every refusal case and the challenge (whether it drops repeats cannot be seen)', async () => {
    const url = await serve(customReceiver(() => ({ status: 200, body: { ok: true } })));
    const result = passedOf(await probeReceiver(url, SECRET, wallSeconds()));
    expect(result).toEqual({
      'valid delivery': true,
      'tampered body': false,
      'wrong secret': false,
      'stale timestamp (6 min old)': false,
      'future timestamp (6 min ahead)': false,
      'repeated event id': true,
      'ownership challenge': false,
    });
  });

  it('a receiver that ignores timestamps fails exactly those cases (whether it drops repeats cannot be seen)', async () => {
    const url = await serve(
      customReceiver((raw, headers) => {
        const verdict = verifyDelivery(headers, raw, { secret: SECRET, nowSeconds: wallSeconds(), toleranceSeconds: 1e9 });
        if (!verdict.ok) return { status: 401, body: { error: verdict.reason } };
        return { status: 200, body: verdict.isChallenge ? { challenge: verdict.payload.challenge } : { received: true } };
      }),
    );
    const result = passedOf(await probeReceiver(url, SECRET, wallSeconds()));
    expect(result).toEqual({
      'valid delivery': true,
      'tampered body': true,
      'wrong secret': true,
      'stale timestamp (6 min old)': false,
      'future timestamp (6 min ahead)': false,
      'repeated event id': true,
      'ownership challenge': true,
    });
  });

  it('a receiver verifying with another secret refuses the valid delivery and cannot answer the challenge', async () => {
    const url = await serve(createReceiver({ secret: 'whsec_not-the-probe-secret', nowSeconds: wallSeconds }));
    const result = passedOf(await probeReceiver(url, SECRET, wallSeconds()));
    expect(result['valid delivery']).toBe(false);
    expect(result['ownership challenge']).toBe(false);
    expect(result['repeated event id']).toBe(false);
    expect(result['tampered body']).toBe(true);
  });

  it('a receiver on a clock 10 minutes off refuses the valid delivery as stale', async () => {
    const url = await serve(createReceiver({ secret: SECRET, nowSeconds: () => wallSeconds() + 600 }));
    const cases = await probeReceiver(url, SECRET, wallSeconds());
    expect(passedOf(cases)['valid delivery']).toBe(false);
    expect(cases[0].detail).toMatch(/answered 400/);
  });

  it('an unreachable receiver fails every case with the connection error', async () => {
    const url = await serve(createServer());
    const port = new URL(url).port;
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const cases = await probeReceiver(`http://127.0.0.1:${port}/webhook`, SECRET, wallSeconds());
    expect(cases.every((c) => !c.passed)).toBe(true);
  });
});

// ---------------------------------------------------------------------------

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('understudy webhook (CLI)', () => {
  it('webhook probe URL --secret S exits 0 against a good receiver', async () => {
    const url = await serve(createReceiver({ secret: SECRET, nowSeconds: wallSeconds }));
    const probe = run(['webhook', 'probe', url, '--secret', SECRET]);
    expect(await probe.exited).toBe(0);
    for (const name of CASES) expect(probe.output()).toContain(`PASS  ${name}`);
    expect(probe.output()).toContain('7 passed, 0 failed');
  });

  it('webhook probe exits 1 against a receiver that accepts everything, and 2 without --secret', async () => {
    const url = await serve(customReceiver(() => ({ status: 200, body: {} })));
    const probe = run(['webhook', 'probe', url, '--secret', SECRET]);
    expect(await probe.exited).toBe(1);
    expect(probe.output()).toContain('FAIL  tampered body');
    expect(probe.output()).toContain('2 passed, 5 failed');
    // Each failing case names its likely cause, the one its kind of failure usually has.
    const failures = probe.output().split(/\n(?=PASS|FAIL|\d+ passed)/).filter((block) => block.startsWith('FAIL'));
    const causes = Object.fromEntries(failures.map((f) => [f.slice(6, 38).trim(), /\n {6}likely cause: (.*)/.exec(f)?.[1]]));
    expect(causes).toEqual({
      'tampered body': expect.stringMatching(/^it accepted a body its signature does not cover: verify the HMAC-SHA256 over/),
      'wrong secret': expect.stringMatching(/^it accepted a signature made with another secret/),
      'stale timestamp (6 min old)': expect.stringMatching(/^it does not refuse old timestamps: spec 6.2 refuses one more than 5 minutes/),
      'future timestamp (6 min ahead)': expect.stringMatching(/^it does not refuse timestamps ahead of its clock/),
      'ownership challenge': expect.stringMatching(/^answer the verification with JSON \{"challenge"/),
    });
    const usage = run(['webhook', 'probe', url]);
    expect(await usage.exited).toBe(2);
  });

  it('webhook listen --sim-url receives, verifies and prints a delivery of a simulator signing with its simulated clock (--webhook-time simulated; test environment, loopback http)', async () => {
    const sim = await start({ webhookTime: 'simulated' });
    const simUrl = await listen(sim.app);
    const { key, accountId } = ethKey(sim);
    // The destination is created first: its signing secret is what the receiver verifies with.
    const { destination, signingSecret } = await createDestination(sim, accountId, 'http://127.0.0.1:1/placeholder');
    expect(destination.state).toBe('needs_verification');
    const receiver = run(['webhook', 'listen', '--port', '0', '--secret', signingSecret, '--sim-url', simUrl]);
    const line = await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(receiver.output())?.[1], 'the receiver to listen');
    const real = await createDestination(sim, accountId, `${line}/hooks`);
    // A different destination has a different secret: the receiver refuses its challenge.
    expect((await verify(sim, real.destination.id)).body.destination).toMatchObject({ state: 'needs_verification', lastError: 'http-401: bad-signature: the signature does not match the body and secret' });

    // Restart the receiver with the real destination's secret.
    process.kill(receiver.child.pid!, 'SIGTERM');
    expect(await receiver.exited).toBe(0);
    const second = run(['webhook', 'listen', '--port', new URL(line).port, '--secret', real.signingSecret, '--sim-url', simUrl]);
    await waitFor(() => second.output().includes('listening on'), 'the second receiver to listen');
    await advance(sim, { seconds: 3600 });
    expect((await verify(sim, real.destination.id)).body.destination.state).toBe('verified');
    const monitor = await createMonitor(sim, key);
    expect((await subscribe(sim, monitor.id, real.destination.id)).status).toBe(201);
    await mine(sim, 'base', [transfer(ALICE, BOB, '5')]);
    const printed = await waitFor(() => {
      const lines = second.output().split('\n').filter((l) => l.startsWith('{'));
      return lines.length >= 2 ? lines.map((l) => JSON.parse(l)) : null;
    }, 'two printed deliveries');
    expect(printed[0]).toMatchObject({ verdict: 'verified', status: 200, type: 'service.destination.verification' });
    expect(printed[1]).toMatchObject({ verdict: 'verified', status: 200, type: 'monitor.event', duplicate: false, payload: { monitorId: monitor.id, status: 'active', event: { args: { value: '5' } } } });
    const log = (await sim.json({ url: '/sim/deliveries' })).body;
    expect(log.deliveries.filter((d: any) => d.purpose === 'delivery').map((d: any) => d.state)).toEqual(['delivered']);
  });
});
