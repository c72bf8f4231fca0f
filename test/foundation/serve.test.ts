import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../sim/domain/keys/index.ts';
import { startSimulator } from '../helpers/simulator.ts';
import { removeTempDirs, tempDir, waitFor } from './support.ts';
import { journalEntries } from '../helpers/journal.ts';
import { HANG_GUARD_MS } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LISTENING = /^understudy listening on http:\/\/(127\.0\.0\.1|0\.0\.0\.0):(\d+)$/;

interface Served {
  child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children: Served[] = [];

/** `node --import tsx src/cli/main.ts serve ARGS` from the repository root. */
function serve(args: string[]): Served {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const served = { child, stdout: () => out, stderr: () => err, exited };
  children.push(served);
  return served;
}

afterEach(async () => {
  for (const served of children.splice(0)) {
    if (served.child.exitCode === null && served.child.signalCode === null) {
      served.child.kill('SIGKILL');
      await served.exited;
    }
  }
  await removeTempDirs();
});

/** Waits for the listening line and `credentialLines` lines after it; returns the base URL and the printed lines. */
async function ready(served: Served, after: (lines: string[]) => boolean): Promise<{ base: string; lines: string[] }> {
  const lines = await waitFor(() => {
    if (served.child.exitCode !== null) throw new Error(`serve exited with ${served.child.exitCode}: ${served.stderr()}`);
    const all = served.stdout().split('\n');
    const complete = all.slice(0, -1);
    return complete.length > 0 && after(complete) ? complete : null;
  }, 'serve to be ready', HANG_GUARD_MS, 20);
  const match = LISTENING.exec(lines[0]);
  expect(match, `first stdout line: ${JSON.stringify(lines[0])}`).not.toBeNull();
  expect(Number(match![2])).toBeGreaterThan(0);
  return { base: `http://127.0.0.1:${match![2]}`, lines };
}

const secretsIn = (lines: string[]) => lines.flatMap((l) => [...l.matchAll(/key (svc_(?:test|live)_[A-Za-z0-9_-]{43})\b/g)].map((m) => m[1]));
const hasCredentials = (count: number) => (lines: string[]) => secretsIn(lines).length === count;

async function stop(served: Served, signal: NodeJS.Signals = 'SIGTERM') {
  served.child.kill(signal);
  const result = await Promise.race([served.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('serve did not exit')), HANG_GUARD_MS))]);
  return result;
}

describe('understudy serve', () => {
  it('prints the listening line first, then demo credentials that work; SIGTERM flushes the store; a restart keeps it and prints no secrets', async () => {
    const dir = await tempDir();
    const store = join(dir, 's.json');
    const first = serve(['--port', '0', '--clock', 'frozen', '--store', store]);
    const { base, lines } = await ready(first, hasCredentials(4));
    expect(lines[0]).toBe(`understudy listening on ${base}`);
    expect(lines[1]).toMatch(/^Demo credentials/);
    const secrets = secretsIn(lines);
    for (const secret of secrets) expect(secret).toMatch(/^svc_test_[A-Za-z0-9_-]{43}$/);

    for (const secret of secrets) {
      const response = await fetch(`${base}/v1/buyer/key`, { headers: { authorization: `Bearer ${secret}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as { key: { last4: string; status: string } };
      expect(body.key.last4).toBe(secret.slice(-4));
      expect(body.key.status).toBe('active');
    }
    const bad = await fetch(`${base}/v1/buyer/key`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);

    const created = await fetch(`${base}/sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'evm', label: 'via http' }) });
    expect(created.status).toBe(201);
    const accountId = ((await created.json()) as { account: { id: string } }).account.id;
    expect(await readFile(`${store}.journal`, 'utf8')).toContain(accountId);
    const clock = (await (await fetch(`${base}/sim/clock`)).json()) as { mode: string; now: string };
    expect(clock).toEqual({ mode: 'frozen', now: '2026-01-01T00:00:00.000Z' });

    expect(await stop(first, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(journalEntries(await readFile(`${store}.journal`))).toEqual([]);
    const snapshot = await readFile(store, 'utf8');
    expect(snapshot).toContain(accountId);
    for (const secret of secrets) {
      expect(snapshot).not.toContain(secret);
      expect(snapshot).toContain(hashSecret(secret));
    }

    const second = serve(['--port', '0', '--clock', 'frozen', '--store', store]);
    const restarted = await ready(second, (l) => l.length >= 2);
    expect(restarted.lines[0]).toMatch(LISTENING);
    expect(second.stdout()).not.toMatch(/svc_(test|live)_/);
    const account = await fetch(`${restarted.base}/sim/accounts/${accountId}`);
    expect(account.status).toBe(200);
    expect(((await account.json()) as { account: { label: string } }).account.label).toBe('via http');
    const again = await fetch(`${restarted.base}/v1/buyer/key`, { headers: { authorization: `Bearer ${secrets[0]}` } });
    expect(again.status).toBe(200);
    expect(await stop(second, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(journalEntries(await readFile(`${store}.journal`))).toEqual([]);
    expect(second.stderr()).toBe('');
  });

  it('honours --env, --seed, --limits, --control-token (here on 0.0.0.0) and the realtime clock default', async () => {
    const dir = await tempDir();
    const store = join(dir, 'prod.json');
    const served = serve(['--port', '0', '--host', '0.0.0.0', '--control-token', 'tok-123', '--env', 'production', '--seed', '9', '--limits', 'off', '--store', store]);
    const { base, lines } = await ready(served, hasCredentials(3));
    expect(lines[0]).toMatch(/^understudy listening on http:\/\/0\.0\.0\.0:\d+$/);
    const secrets = secretsIn(lines);
    for (const secret of secrets) expect(secret).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    // The same seed in process gives the same demo secrets.
    const inProcess = await startSimulator({ seed: '9', env: 'production' });
    expect(secrets).toEqual(inProcess.demo.map((d) => d.secret));
    await inProcess.destroy();

    const capabilities = (await (await fetch(`${base}/v1/capabilities`)).json()) as { environment: string; limits: { rateLimitsEnforced: boolean } };
    expect(capabilities.environment).toBe('production');
    expect(capabilities.limits.rateLimitsEnforced).toBe(false);
    expect((await fetch(`${base}/sim/clock`)).status).toBe(401);
    expect((await fetch(`${base}/sim/clock`, { headers: { 'x-understudy-control-token': 'wrong' } })).status).toBe(401);
    const clock = await fetch(`${base}/sim/clock`, { headers: { 'x-understudy-control-token': 'tok-123' } });
    expect(clock.status).toBe(200);
    // The default clock follows the wall clock.
    const now = (await clock.json()) as { mode: string; now: string };
    expect(now.mode).toBe('realtime');
    expect(Math.abs(Date.parse(now.now) - Date.now())).toBeLessThan(10_000);
    expect((await fetch(`${base}/v1/buyer/key`, { headers: { authorization: `Bearer ${secrets[0]}` } })).status).toBe(200);
    expect(await stop(served)).toEqual({ code: 0, signal: null });
  });

  it('refuses a corrupt store with exit code 2, naming the file, and leaves it as it was', async () => {
    const dir = await tempDir();
    const store = join(dir, 'broken.json');
    await writeFile(store, '{"format": "understudy-store", "version": 1, "seq":');
    const served = serve(['--port', '0', '--store', store]);
    const { code } = await served.exited;
    expect(code).toBe(2);
    expect(served.stderr()).toContain(store);
    expect(served.stdout()).not.toContain('listening');
    expect(await readFile(store, 'utf8')).toBe('{"format": "understudy-store", "version": 1, "seq":');
  });

  it('refuses a store another serve is using, exit code 2 naming its lock; takes over the lock of one that was killed', async () => {
    const dir = await tempDir();
    const store = join(dir, 'shared.json');
    const first = serve(['--port', '0', '--clock', 'frozen', '--store', store]);
    await ready(first, (lines) => lines.length >= 5);
    const second = serve(['--port', '0', '--clock', 'frozen', '--store', store]);
    expect((await second.exited).code).toBe(2);
    expect(second.stderr()).toContain(`${store}.lock`);
    expect(second.stderr()).toContain(`in use by process ${first.child.pid}`);
    expect(second.stdout()).not.toContain('listening');
    first.child.kill('SIGKILL');
    await first.exited;
    const third = serve(['--port', '0', '--clock', 'frozen', '--store', store]);
    const { lines } = await ready(third, (l) => l.length >= 2);
    expect(lines[1]).toMatch(/^Existing store:/);
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
    await expect(stat(`${store}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--help lists every flag', async () => {
    const served = serve(['--help']);
    const { code } = await served.exited;
    expect(code).toBe(0);
    for (const flag of ['--host', '--port', '--store', '--seed', '--env', '--clock', '--limits', '--control-token']) expect(served.stdout()).toContain(flag);
    expect(served.stdout()).toContain('realtime|frozen');
    expect(served.stdout()).toContain('test|production');
  });

  it('refuses a non-loopback host without --control-token, and bad flags, with a non-zero exit before touching the store', async () => {
    const dir = await tempDir();
    const store = join(dir, 'never.json');
    const cases: Array<[string[], RegExp]> = [
      [['--host', '0.0.0.0'], /control-token/],
      [['--port', 'eighty'], /--port/],
      [['--clock', 'sometimes'], /--clock/],
      [['--limits', 'maybe'], /--limits/],
      [['--no-such-flag'], /--no-such-flag/],
    ];
    for (const [args, message] of cases) {
      const served = serve([...args, '--store', store]);
      const { code } = await served.exited;
      expect(code, args.join(' ')).not.toBe(0);
      expect(served.stderr(), args.join(' ')).toMatch(message);
      expect(served.stdout()).not.toContain('listening');
    }
    await expect(stat(store)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
