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
 * simulator on a frozen clock (whose time is not the wall clock's). By default
 * the simulator signs with the real time (serve --webhook-time wall) and both
 * tools judge by the wall clock, as a receiver of the real service does;
 * --sim-url URL reads the simulator's clock, for --webhook-time simulated.
 */

cleanupAfterEach();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
});

/** The CLI as a user runs it. */
function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

/** A destination at a free port, then the README's receiver on that port with the destination's secret. */
async function destinationWithReceiver(sim: Awaited<ReturnType<typeof start>>, extra: string[] = []) {
  const port = await freePort();
  const { destination, signingSecret } = await createDestination(sim, ethKey(sim).accountId, `http://127.0.0.1:${port}/hooks`);
  const run = cli(['webhook', 'listen', '--port', String(port), '--secret', signingSecret, ...extra]);
  await waitFor(() => run.output().includes('judging timestamps by'), 'the receiver to listen and name its clock');
  return { ...run, destination, signingSecret, url: `http://127.0.0.1:${port}/hooks` };
}

describe('webhook listen and probe defaults', () => {
  it("judge by the wall clock unless --sim-url names a simulator ('none' is the wall clock too)", () => {
    expect(README_SIM_URL).toBe('http://127.0.0.1:4010');
    expect(simUrlOf(undefined)).toBeNull();
    expect(simUrlOf('none')).toBeNull();
    expect(simUrlOf('http://127.0.0.1:5000')).toBe('http://127.0.0.1:5000');
  });

  it('a receiver started without --sim-url verifies destinations of a frozen simulator, before and after it moved a day', async () => {
    const sim = await start();
    const first = await destinationWithReceiver(sim);
    expect(first.output()).toContain('judging timestamps by the wall clock\n');
    expect((await verify(sim, first.destination.id)).body.destination).toMatchObject({ state: 'verified', lastError: null });
    await advance(sim, { seconds: 86_400 });
    const second = await destinationWithReceiver(sim);
    expect((await verify(sim, second.destination.id)).body.destination).toMatchObject({ state: 'verified', lastError: null, verifiedAt: '2026-01-02T00:00:00.000Z' });
    expect(first.output()).toMatch(/"verdict":"verified".*"clock":"wall clock"/);
  });

  it('--sim-url reads the clock of a simulator started with --webhook-time simulated, again after it moved a day', async () => {
    const sim = await start({ webhookTime: 'simulated' });
    const simUrl = await listen(sim.app);
    const first = await destinationWithReceiver(sim, ['--sim-url', simUrl]);
    expect(first.output()).toContain(`judging timestamps by the simulator clock at ${simUrl}, read again for every delivery`);
    expect((await verify(sim, first.destination.id)).body.destination).toMatchObject({ state: 'verified', lastError: null });
    await advance(sim, { seconds: 86_400 });
    const second = await destinationWithReceiver(sim, ['--sim-url', simUrl]);
    expect((await verify(sim, second.destination.id)).body.destination).toMatchObject({ state: 'verified', lastError: null });
  });

  it("a refusal says why in the destination's lastError: a receiver on the wall clock calls a simulated timestamp stale", async () => {
    const sim = await start({ webhookTime: 'simulated' });
    const wall = await destinationWithReceiver(sim);
    const { destination } = (await verify(sim, wall.destination.id)).body;
    expect(destination.state).toBe('needs_verification');
    expect(destination.lastError).toMatch(/^http-400: stale-timestamp: the timestamp is \d+ s old by the wall clock$/);
    const log = (await sim.json({ url: '/sim/deliveries' })).body;
    expect(log.attempts.at(-1)).toMatchObject({ status: 400, error: destination.lastError });
  });

  it('with no simulator at --sim-url the receiver says it falls back to the wall clock', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const run = cli(['webhook', 'listen', '--port', '0', '--secret', 'whsec_x', '--sim-url', nowhere]);
    await waitFor(() => run.output().includes('judging timestamps by'), 'the receiver to name its clock');
    expect(run.output()).toContain(`judging timestamps by the wall clock (no simulator at ${nowhere}: ECONNREFUSED), read again for every delivery`);
  });

  it('webhook probe URL --secret S passes 7 of 7 against webhook listen with the same defaults', async () => {
    const sim = await start();
    const { url, signingSecret } = await destinationWithReceiver(sim);
    const probe = cli(['webhook', 'probe', url, '--secret', signingSecret]);
    expect(await probe.exited, probe.output()).toBe(0);
    expect(probe.output()).toMatch(/^signing with the wall clock: 20\d\d-/m);
    expect(probe.output()).toContain('7 passed, 0 failed');
  });

  it('every failing probe case says what was sent, what was expected, the answer and the likely cause', async () => {
    const sim = await start({ webhookTime: 'simulated' });
    const simUrl = await listen(sim.app);
    const { url, signingSecret } = await destinationWithReceiver(sim, ['--sim-url', simUrl]);
    // The probe signs by the wall clock; the receiver judges by the simulator's, frozen on 2026-01-01.
    const probe = cli(['webhook', 'probe', url, '--secret', signingSecret]);
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
