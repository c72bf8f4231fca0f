import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSimulator, type BuiltSimulator } from '../../sim/app.ts';
import { seedDemo } from '../../sim/domain/demo.ts';
import { serveCommand } from '../../src/cli/serve.ts';
import { UsageError } from '../../src/cli/args.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * serve --cors: pages from the given origins may read the keyless /v1 routes
 * (preflight included); keyed /v1 routes are not offered to pages, and /sim
 * refuses any request that carries an Origin header.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FRONT_END = 'http://localhost:5173';
const LISTING = '/v1/public/agents/f466035d-ad7f-4b5a-b6c4-a627c551b975';
const dirs: string[] = [];

async function simulator(corsOrigins: string[]): Promise<{ built: BuiltSimulator; key: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-cors-'));
  dirs.push(dir);
  const built = await buildSimulator({ storePath: join(dir, 'store.json'), seed: 1, clock: 'frozen', limits: false, corsOrigins });
  const key = seedDemo(built.sim.deps).find((d) => d.profile === 'local_custody')!.secret;
  return { built, key };
}

let on: { built: BuiltSimulator; key: string };
let off: { built: BuiltSimulator; key: string };

beforeAll(async () => {
  on = await simulator([FRONT_END, 'https://app.example']);
  off = await simulator([]);
});
afterAll(async () => {
  await on?.built.close();
  await off?.built.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const preflight = (app: BuiltSimulator['app'], url: string, origin = FRONT_END, headers: Record<string, string> = {}) =>
  app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'GET', ...headers } });

describe('serve --cors ORIGIN: the keyless /v1 routes', () => {
  it('the public catalog, capabilities and the machine description answer the listed origins, preflight included', async () => {
    for (const url of ['/v1/public/agents?limit=1', LISTING, '/v1/capabilities', '/v1/openapi.json']) {
      for (const origin of [FRONT_END, 'https://app.example']) {
        const answer = await on.built.app.inject({ url, headers: { origin } });
        expect(answer.statusCode, url).toBe(200);
        expect(answer.headers['access-control-allow-origin'], url).toBe(origin);
        expect(String(answer.headers.vary)).toMatch(/Origin/);
        const asked = await preflight(on.built.app, url.split('?')[0], origin);
        expect(asked.statusCode, url).toBe(204);
        expect(asked.headers['access-control-allow-origin']).toBe(origin);
        expect(asked.headers['access-control-allow-methods']).toBe('GET, HEAD');
      }
    }
    // Error answers carry the header too, so the page can read the error body.
    const refused = await on.built.app.inject({ url: '/v1/public/agents?limit=99', headers: { origin: FRONT_END } });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['access-control-allow-origin']).toBe(FRONT_END);
  });

  it('an origin not listed gets no allow-origin header; the preflight never allows an Authorization header', async () => {
    const other = await on.built.app.inject({ url: '/v1/public/agents', headers: { origin: 'http://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(on.built.app, '/v1/public/agents', 'http://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    const withKey = await preflight(on.built.app, '/v1/public/agents', FRONT_END, { 'access-control-request-headers': 'authorization' });
    expect(String(withKey.headers['access-control-allow-headers'] ?? '').toLowerCase()).not.toContain('authorization');
  });

  it('keyed /v1 routes and /sim are not offered to pages: no allow-origin, preflight 404', async () => {
    const keyed = await on.built.app.inject({ url: '/v1/buyer/key', headers: { origin: FRONT_END, authorization: `Bearer ${on.key}` } });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.headers['access-control-allow-origin']).toBeUndefined();
    for (const url of ['/v1/buyer/key', '/v1/custody/quotes', '/sim/reset', '/sim/snapshot']) {
      const asked = await preflight(on.built.app, url);
      expect(asked.statusCode, url).toBe(404);
      expect(asked.headers['access-control-allow-origin'], url).toBeUndefined();
    }
  });

  it('off by default: no CORS header anywhere', async () => {
    const answer = await off.built.app.inject({ url: '/v1/public/agents', headers: { origin: FRONT_END } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(off.built.app, '/v1/public/agents')).statusCode).toBe(404);
  });
});

describe('/sim and browsers', () => {
  it('a request carrying an Origin header is refused with 403 and changes nothing; without one it is answered', async () => {
    for (const { built } of [on, off]) {
      const before = built.sim.deps.store.count('accounts');
      const reset = await built.app.inject({ method: 'POST', url: '/sim/reset', headers: { origin: 'http://evil.example' } });
      expect(reset.statusCode).toBe(403);
      expect(JSON.parse(reset.body).error.code).toBe('request_rejected');
      const snapshot = await built.app.inject({ url: '/%73im/snapshot', headers: { origin: FRONT_END } });
      expect(snapshot.statusCode).toBe(403);
      expect(built.sim.deps.store.count('accounts')).toBe(before);
      expect((await built.app.inject({ url: '/sim/clock' })).statusCode).toBe(200);
    }
  });
});

describe('the --cors flag', () => {
  it('serve --help lists it', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await serveCommand(['--help'])).toBe(0);
      expect(write.mock.calls.map((c) => String(c[0])).join('')).toMatch(/--cors ORIGIN\s+.*repeatable or comma-separated/);
    } finally {
      write.mockRestore();
    }
  });

  it('refuses what is not an origin, naming the flag', async () => {
    for (const bad of ['localhost:5173', 'http://localhost:5173/', 'http://localhost:5173/app', 'ftp://x.example', 'http://a.example,', '']) {
      await expect(serveCommand(['--cors', bad, '--port', '0']), bad).rejects.toThrow(UsageError);
      await expect(serveCommand(['--cors', bad, '--port', '0']), bad).rejects.toThrow(/--cors/);
    }
  });

  it('a served simulator takes the flag repeated and as a comma list', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-cors-'));
    dirs.push(dir);
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--store', join(dir, 's.json'), '--cors', 'http://a.example', '--cors', 'http://b.example,http://c.example:8080'];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      const port = await waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${err}`);
          return /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1] ?? null;
        },
        'serve to listen',
        30_000,
        20,
      );
      for (const origin of ['http://a.example', 'http://b.example', 'http://c.example:8080']) {
        const answer = await fetch(`http://127.0.0.1:${port}/v1/public/agents?limit=1`, { headers: { origin } });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      }
      const other = await fetch(`http://127.0.0.1:${port}/v1/public/agents?limit=1`, { headers: { origin: 'http://d.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
