import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountOf, quote, RAIL, start, stopAll, tokenInput, untilEnded } from '../runs/support.ts';
import type { TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 13 point 8. Spec 2.10: the run of an acceptance is queued; spec 4.4 and 3.1: the
 * same request repeated returns the original run and reservation. A retried accept (spec
 * 7: "returns the original run") must therefore answer the bytes of the first answer,
 * whatever the run did since, and after a checkpoint and a restart too.
 */
const dirs: string[] = [];
afterEach(async () => {
  await stopAll();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function accept(s: TestSimulator, quoteId: string, contractHash: string, idempotencyKey: string, key = s.secret('solana_sol')) {
  const response = await s.request({
    method: 'POST',
    url: `${RAIL.solana_sol}/quotes/${quoteId}/accept`,
    key,
    body: { acceptedContractHash: contractHash, idempotencyKey },
  });
  expect(response.statusCode, response.body).toBe(202);
  return response.body;
}

describe('a replayed acceptance', () => {
  it('answers the original acceptance byte for byte once the run has succeeded', async () => {
    const s = await start();
    const q = await quote(s, 'solana_sol');
    const original = await accept(s, q.id, q.contractHash, 'replay-after-success');
    const first = JSON.parse(original);
    expect(first.run.status).toBe('queued');
    expect(first.run.rpcUsed).toBe(0);

    const ended = await untilEnded(s, first.run.id);
    expect(ended.run.status).toBe('succeeded');
    // Long after the quote expired, too (spec 4.4).
    await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 3600 } });
    expect(await accept(s, q.id, q.contractHash, 'replay-after-success')).toBe(original);
    // The current run is the run read.
    expect((await s.json({ url: `/v1/runs/${first.run.id}`, key: s.secret('solana_sol') })).body.run.status).toBe('succeeded');
  });

  it('answers the same bytes for a partial run, after a checkpoint and a restart on the same store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-replay-'));
    dirs.push(dir);
    const first = await start({ dir });
    const q = await quote(first, 'solana_sol', { input: tokenInput('0a0a') });
    const original = await accept(first, q.id, q.contractHash, 'replay-after-restart');
    const runId = JSON.parse(original).run.id;
    expect((await untilEnded(first, runId)).run.status).toBe('partial');
    expect((await first.json({ method: 'POST', url: '/sim/store/checkpoint' })).status).toBe(200);
    expect(await accept(first, q.id, q.contractHash, 'replay-after-restart')).toBe(original);
    await first.close();

    // The store is not new, so no demo keys are seeded again: the first one's key is used.
    const second = await start({ dir });
    expect(await accept(second, q.id, q.contractHash, 'replay-after-restart', first.secret('solana_sol'))).toBe(original);
    // Nothing was reserved twice: one run for the quote.
    expect((await second.json({ url: '/sim/runs' })).body.runs.filter((r: any) => r.quoteId === q.id)).toHaveLength(1);
  });
});
