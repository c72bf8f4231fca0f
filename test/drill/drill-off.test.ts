import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openInProcess, type InProcessSimulator } from '../../src/library/in-process.ts';
import { QUOTE_BODY } from './support.ts';

/**
 * buildSimulator's `drill: false` (what the bench's drill row compares against): the
 * same /v1 answers, no chaos, no conduct lines, no drill routes.
 */
describe('the simulator without the drill', () => {
  let built: InProcessSimulator | null = null;
  let dir = '';
  afterEach(async () => {
    await built?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(drill: boolean) {
    dir = await mkdtemp(join(tmpdir(), 'understudy-layer-'));
    built = await openInProcess({ storePath: join(dir, 'store.json'), seed: '1', clock: 'frozen', limits: false, chaos: 'storm', drill });
    const { credentials } = built.seedDemo();
    const eth = credentials.find((c) => c.profile === 'local_custody')!;
    const url = await built.app.listen({ host: '127.0.0.1', port: 0 });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${eth.secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    return { call, keyId: eth.keyId };
  }

  it('answers /v1 untouched by a storm profile, keeps no lines, and has no /sim/chaos, /sim/report or /sim/conduct', async () => {
    const { call, keyId } = await open(false);
    // storm would refuse or delay some of 30 quote creations; without the drill, none is.
    for (let i = 0; i < 30; i += 1) expect((await call('POST', '/v1/custody/quotes', QUOTE_BODY)).status).toBe(201);
    for (const path of ['/sim/chaos', '/sim/report', `/sim/conduct?keyId=${keyId}`]) {
      const answer = await call('GET', path);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
  });

  it('with the drill (the default), the same storm refuses some of those quote creations and keeps their lines', async () => {
    const { call, keyId } = await open(true);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await call('POST', '/v1/custody/quotes', QUOTE_BODY).catch(() => ({ status: 0 }))).status);
    expect(statuses.some((s) => s !== 201)).toBe(true);
    const lines = (await call('GET', `/sim/conduct?keyId=${keyId}`)).body.lines;
    expect(lines.length).toBe(30);
  });
});
