import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { runScenario } from '../../src/scenario/runner.ts';
import { textTranscript } from '../../src/scenario/transcript.ts';
import { call, demoSecrets, killChildren, ok, removeTempDirs, serve, stop, tempDir } from '../reliability/support.ts';

/**
 * Issue 8: a session recorded with `serve --record` replays with identical
 * answers. The session runs on a realtime clock (time passes between
 * requests, the worker runs on the real-time ticker) and is replayed on a
 * frozen one.
 */
afterAll(async () => {
  await killChildren();
  await removeTempDirs();
});

describe('serve --record', () => {
  it('writes a scenario that replays to the same answers', async () => {
    const dir = await tempDir('record-replay');
    const recording = join(dir, 'session.json');
    const served = await serve(['--port', '0', '--clock', 'realtime', '--store', join(dir, 's.json'), '--record', recording]);
    const eth = demoSecrets(served).find((d) => d.profile === 'local_custody')!;
    const quote = (await ok(served.base, 'POST', '/v1/custody/quotes', 201, { key: eth.secret, body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: { chain: 'base', address: `0x${'12'.repeat(20)}` } } })).quote;
    const accepted = await ok(served.base, 'POST', `/v1/custody/quotes/${quote.id}/accept`, 202, { key: eth.secret, body: { acceptedContractHash: quote.contractHash, idempotencyKey: 'recorded-0001' } });
    await ok(served.base, 'POST', '/sim/clock/advance', 200, { body: { seconds: 400 } });
    await ok(served.base, 'GET', `/v1/runs/${accepted.run.id}`, 200, { key: eth.secret });
    await ok(served.base, 'GET', `/v1/custody/runs/${accepted.run.id}/billing`, 200, { key: eth.secret });
    const made = await ok(served.base, 'POST', `/sim/accounts/${eth.accountId}/keys`, 201, { body: { profile: 'local_custody', spendLimitAtomic: '1000' } });
    await ok(served.base, 'GET', '/v1/buyer/key', 200, { key: made.secret });
    // A refusal is recorded too, and must replay as the same refusal.
    expect((await call(served.base, 'POST', '/v1/custody/quotes', { key: eth.secret, body: {} })).status).toBe(400);
    expect(await stop(served, 'SIGTERM')).toEqual({ code: 0, signal: null });

    const text = await readFile(recording, 'utf8');
    for (const secret of [eth.secret, made.secret]) expect(text).not.toContain(secret);
    const scenario = await loadScenario(recording);
    expect(scenario.steps.filter((s) => 'call' in s || 'control' in s)).toHaveLength(8);
    const replay = await runScenario(scenario, recording);
    expect(replay.passed, textTranscript(replay)).toBe(true);
    // Every recorded answer (status and body) was compared, not only statuses.
    const compared = replay.steps.flatMap((s) => s.checks).filter((c) => c.what === 'body');
    expect(compared.length).toBeGreaterThanOrEqual(8);
  });
});
