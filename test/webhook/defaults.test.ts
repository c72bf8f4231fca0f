import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../helpers/simulator.ts';
import { advance, cleanupAfterEach, createDestination, ethKey, start, verify, waitFor } from '../monitors/support.ts';
import { README_SIM_URL, simUrlOf } from '../../src/webhook/clock.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * The README's webhook commands with their defaults: `webhook listen --port N
 * --secret S` and `webhook probe URL --secret S`, no --sim-url, against a
 * simulator on a frozen clock (whose time is not the wall clock's).
 */

cleanupAfterEach();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
});

/** The CLI as a user runs it; `simUrl` stands where the README's serve listens (its port 4010 may be taken on a test machine). */
function cli(args: string[], simUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, UNDERSTUDY_SIM_URL: simUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

/** A destination at a free port, then the README's receiver on that port with the destination's secret. */
async function destinationWithReceiver(sim: Awaited<ReturnType<typeof start>>, simUrl: string, extra: string[] = []) {
  const port = await freePort();
  const { destination, signingSecret } = await createDestination(sim, ethKey(sim).accountId, `http://127.0.0.1:${port}/hooks`);
  const run = cli(['webhook', 'listen', '--port', String(port), '--secret', signingSecret, ...extra], simUrl);
  await waitFor(() => run.output().includes('judging timestamps by'), 'the receiver to listen and name its clock');
  return { ...run, destination, signingSecret, url: `http://127.0.0.1:${port}/hooks` };
}

describe('webhook listen and probe defaults', () => {
  it("default to the README's simulator address, UNDERSTUDY_SIM_URL overriding it, and 'none' meaning the wall clock", () => {
    expect(README_SIM_URL).toBe('http://127.0.0.1:4010');
    expect(simUrlOf(undefined, {})).toBe('http://127.0.0.1:4010');
    expect(simUrlOf(undefined, { UNDERSTUDY_SIM_URL: 'http://localhost:9999' })).toBe('http://localhost:9999');
    expect(simUrlOf('http://127.0.0.1:5000', { UNDERSTUDY_SIM_URL: 'http://localhost:9999' })).toBe('http://127.0.0.1:5000');
    expect(simUrlOf('none', {})).toBeNull();
  });

  it('a receiver started without --sim-url verifies destinations on the frozen simulated clock, reading it again after it moved a day', async () => {
    const sim = await start();
    const simUrl = await listen(sim.app);
    const first = await destinationWithReceiver(sim, simUrl);
    expect(first.output()).toContain(`judging timestamps by the simulator clock at ${simUrl}, read again for every delivery`);
    expect((await verify(sim, first.destination.id)).body.destination).toMatchObject({ state: 'verified', lastError: null });
    await advance(sim, { seconds: 86_400 });
    const second = await destinationWithReceiver(sim, simUrl);
    expect((await verify(sim, second.destination.id)).body.destination).toMatchObject({ state: 'verified', lastError: null });
    // The same receiver, a day later by the simulator: a new destination's challenge is judged by the moved clock.
    const { destination } = await createDestination(sim, ethKey(sim).accountId, first.url);
    expect((await verify(sim, destination.id)).body.destination.lastError).toMatch(/^http-401: bad-signature/);
    expect(first.output()).toMatch(/"verdict":"verified".*"clock":"simulator clock at /);
  });

  it("a refusal says why in the destination's lastError: a receiver on the wall clock calls the simulated timestamp stale", async () => {
    const sim = await start();
    const simUrl = await listen(sim.app);
    const wall = await destinationWithReceiver(sim, simUrl, ['--sim-url', 'none']);
    expect(wall.output()).toContain('judging timestamps by the wall clock\n');
    const { destination } = (await verify(sim, wall.destination.id)).body;
    expect(destination.state).toBe('needs_verification');
    expect(destination.lastError).toMatch(/^http-400: stale-timestamp: the timestamp is \d+ s old by the wall clock$/);
    const log = (await sim.json({ url: '/sim/deliveries' })).body;
    expect(log.attempts.at(-1)).toMatchObject({ status: 400, error: destination.lastError });
  });

  it('with no simulator at the default address the receiver says it falls back to the wall clock', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const run = cli(['webhook', 'listen', '--port', '0', '--secret', 'whsec_x'], nowhere);
    await waitFor(() => run.output().includes('judging timestamps by'), 'the receiver to name its clock');
    expect(run.output()).toContain(`judging timestamps by the wall clock (no simulator at ${nowhere}: ECONNREFUSED), read again for every delivery`);
  });

  it('webhook probe URL --secret S passes 7 of 7 against webhook listen with the same defaults', async () => {
    const sim = await start();
    const simUrl = await listen(sim.app);
    const { url, signingSecret } = await destinationWithReceiver(sim, simUrl);
    const probe = cli(['webhook', 'probe', url, '--secret', signingSecret], simUrl);
    expect(await probe.exited, probe.output()).toBe(0);
    expect(probe.output()).toContain(`signing with the simulator clock at ${simUrl}: 2026-01-01T00:00:00.000Z`);
    expect(probe.output()).toContain('7 passed, 0 failed');
  });

  it('every failing probe case says what was sent, what was expected, the answer and the likely cause', async () => {
    const sim = await start();
    const simUrl = await listen(sim.app);
    const { url, signingSecret } = await destinationWithReceiver(sim, simUrl);
    // The probe signs by the wall clock; the receiver judges by the simulator's, frozen on 2026-01-01.
    const probe = cli(['webhook', 'probe', url, '--secret', signingSecret, '--sim-url', 'none'], simUrl);
    expect(await probe.exited).toBe(1);
    const out = probe.output();
    expect(out).toContain('4 passed, 3 failed');
    const failures = out.split(/\n(?=PASS|FAIL|\d+ passed)/).filter((block) => block.startsWith('FAIL'));
    expect(failures.map((f) => f.slice(6, 38).trim())).toEqual(['valid delivery', 'repeated event id', 'ownership challenge']);
    for (const failure of failures) {
      expect(failure).toMatch(/expected 2xx/);
      expect(failure).toMatch(/\n {6}sent: .*signed with your secret.*now by the wall clock/);
      expect(failure).toMatch(/\n {6}answer body: \{"error":\{"code":"future-timestamp","message":"the timestamp is \d+ s ahead by the simulator clock at /);
      expect(failure).toMatch(/\n {6}likely cause: .*another clock than the probe \(the wall clock\)/);
    }
  });
});
