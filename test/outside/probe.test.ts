import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { probeReceiver, type ProbeCase } from '../../src/webhook/probe.ts';
import { verifyDelivery } from '../../src/webhook/verify.ts';

/**
 * Point 11 of issue 13: the receiver probe reports what it can observe (status,
 * time, the challenge echo) and says plainly what it cannot see. A receiver's
 * wording of its answer is not evidence of anything.
 */
const SECRET = 'whsec_probe-test-secret-0000000000000000000000';
const NOW = 1_767_225_600; // the probe signs and the receivers judge with this clock: no wall time involved
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A receiver that follows spec 6.2's rules (verify, refuse stale, echo the
 * challenge) and answers verified deliveries with `answer(repeated)`; it
 * counts how often it processed each event id.
 */
async function receiver(answer: (repeated: boolean) => { status: number; body: unknown }, dropRepeats: boolean): Promise<{ url: string; processed: Map<string, number> }> {
  const seen = new Set<string>();
  const processed = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const verdict = verifyDelivery(req.headers, raw, { secret: SECRET, nowSeconds: NOW });
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (!verdict.ok) return reply(401, { error: verdict.reason });
      if (verdict.isChallenge) return reply(200, { challenge: verdict.payload.challenge });
      const repeated = seen.has(verdict.eventId);
      seen.add(verdict.eventId);
      if (!(repeated && dropRepeats)) processed.set(verdict.eventId, (processed.get(verdict.eventId) ?? 0) + 1);
      const { status, body } = answer(repeated);
      reply(status, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, processed };
}

const repeatedCase = (cases: ProbeCase[]) => cases.find((c) => c.name === 'repeated event id')!;

describe('webhook probe: the repeated event id', () => {
  it('a compliant receiver that drops the repeat and answers {"ok":true} passes', async () => {
    const compliant = await receiver(() => ({ status: 200, body: { ok: true } }), true);
    const cases = await probeReceiver(compliant.url, SECRET, NOW);
    for (const c of cases) expect(c.passed, `${c.name}: ${c.detail}`).toBe(true);
    expect([...compliant.processed.values()]).toEqual([1]);
  });

  it('the answer body is not evidence: {"duplicate":false}, {"duplicate":true} and {"ok":true} get the same verdict, with the same plain note', async () => {
    const verdicts = [];
    for (const body of [{ duplicate: false }, { duplicate: true }, { ok: true }, 'dropped']) {
      const { url } = await receiver(() => ({ status: 200, body }), false);
      const { passed, expectation, unseen } = repeatedCase(await probeReceiver(url, SECRET, NOW));
      verdicts.push({ passed, expectation, unseen });
    }
    expect(new Set(verdicts.map((v) => JSON.stringify(v))).size).toBe(1);
    expect(verdicts[0].passed).toBe(true);
    expect(verdicts[0].expectation).toMatch(/2xx/);
    expect(verdicts[0].unseen).toMatch(/cannot be seen from outside/);
    expect(verdicts[0].unseen).toMatch(/x-service-event-id/);
  });

  it('what is observable still decides: a repeat refused with 409 or 500 fails, since the sender would retry it', async () => {
    for (const status of [409, 500]) {
      const { url } = await receiver((repeated) => (repeated ? { status, body: { duplicate: true } } : { status: 200, body: {} }), true);
      const cases = await probeReceiver(url, SECRET, NOW);
      expect(repeatedCase(cases)).toMatchObject({ passed: false, detail: expect.stringMatching(new RegExp(`^answered ${status} in \\d+ ms$`)) });
      expect(cases.filter((c) => !c.passed).map((c) => c.name)).toEqual(['repeated event id']);
    }
  });

  it('only the repeated-id case carries a note: the others are fully judged by status and echo', async () => {
    const { url } = await receiver(() => ({ status: 200, body: {} }), true);
    const cases = await probeReceiver(url, SECRET, NOW);
    expect(cases.filter((c) => c.unseen).map((c) => c.name)).toEqual(['repeated event id']);
  });
});

describe('understudy webhook probe (CLI)', () => {
  it('prints the note under the case and in the summary, and exits 0 for a compliant receiver answering {"ok":true}', async () => {
    const { url } = await receiver(() => ({ status: 200, body: { ok: true } }), true);
    // The CLI signs with the wall clock; the receiver is pinned to NOW, so point both at a clock server.
    const clock = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ now: new Date(NOW * 1000).toISOString() })));
    servers.push(clock);
    await new Promise<void>((resolve) => clock.listen(0, '127.0.0.1', resolve));
    const simUrl = `http://127.0.0.1:${(clock.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'webhook', 'probe', url, '--secret', SECRET, '--sim-url', simUrl], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toMatch(/PASS {2}repeated event id +expected 2xx within 5 s \(a retry is acknowledged\); answered 200 in \d+ ms\n {6}not checked: whether the repeat was processed a second time cannot be seen from outside/);
    expect(output).toContain('7 passed, 0 failed; 1 not checkable from outside (see "not checked")');
  });
});
