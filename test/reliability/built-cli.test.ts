import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../bin/build.js';
import { call, demoSecrets, killChildren, removeTempDirs, serve, stop, tempDir } from './support.ts';

/**
 * `npm run serve` / `npm start` run the built CLI (bin/build.js): the same
 * program as the sources, bundled, so that starting it skips tsx's loader. These
 * check that the build serves like the sources do, including files it finds
 * relative to its own modules (fixtures/chains).
 */
afterEach(async () => {
  await killChildren();
  await removeTempDirs();
});

describe('the built CLI', () => {
  it('is built once per state of the sources and reused', async () => {
    const entry = await ensureBuilt();
    expect(entry).toMatch(/dist[\\/][0-9a-f]{16}[\\/]main\.js$/);
    const built = (await stat(entry)).mtimeMs;
    expect(await ensureBuilt()).toBe(entry);
    expect((await stat(entry)).mtimeMs).toBe(built);
  });

  it('serves: ready line, demo credentials that work, a fixture chain script, a clean stop that keeps the store', async () => {
    const dir = await tempDir('built');
    const store = join(dir, 'store.json');
    const served = await serve(['--port', '0', '--clock', 'frozen', '--store', store], 'built');
    const eth = demoSecrets(served).find((d) => d.profile === 'local_custody')!;
    const key = await call(served.base, 'GET', '/v1/buyer/key', { key: eth.secret });
    expect(key.status).toBe(200);
    expect(key.body.key.profile).toBe('local_custody');
    const script = await call(served.base, 'POST', '/sim/chains/scripts', { body: { name: 'demo-transfers' } });
    expect(script.status).toBe(201);
    expect(script.body).toEqual({ script: 'demo-transfers', scheduled: 5 });
    const refused = await call(served.base, 'POST', '/v1/custody/quotes', { key: eth.secret, body: { listingId: 'nope' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_input');
    expect(await stop(served, 'SIGTERM')).toEqual({ code: 0, signal: null });

    const again = await serve(['--port', '0', '--clock', 'frozen', '--store', store], 'built');
    expect(again.readyLines[1]).toMatch(/^Existing store:/);
    expect((await call(again.base, 'GET', '/v1/buyer/key', { key: eth.secret })).status).toBe(200);
    expect(await stop(again, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });
});
