import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { EPOCH_MS, advance, cleanupAfterEach, start } from '../monitors/support.ts';

/**
 * Issue 13, point 12: the per-advance job bound (2,000,000; lowered here) no
 * longer jumps the clock past jobs it did not run. An advance that reaches it
 * with jobs still due is refused (409) and the clock stays at the last instant
 * every due job has run by, so no job ever runs at an instant earlier than
 * the clock had already reached.
 */

cleanupAfterEach();

const BOUND = 5;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The demo chain script (5 entries between 20 s and 2 min) loaded at 0, 1 and
 * 2 s: 15 jobs at 15 different instants within the first 3 minutes, three
 * times the bound.
 */
async function scripted(sim: TestSimulator): Promise<void> {
  for (let i = 0; i < 3; i += 1) {
    if (i > 0) await advance(sim, { seconds: 1 });
    expect((await sim.json({ method: 'POST', url: '/sim/chains/scripts', body: { name: 'demo-transfers' } })).status).toBe(201);
  }
}

async function clockMs(sim: TestSimulator): Promise<number> {
  return Date.parse((await sim.json({ url: '/sim/clock' })).body.now);
}

describe('an advance that reaches the job bound', () => {
  it('is refused naming the bound and the instant the clock stays at, short of the target', async () => {
    const sim = await start({ maxJobsPerAdvance: BOUND });
    await scripted(sim);

    const refused = await sim.json({ method: 'POST', url: '/sim/clock/advance', body: { to: iso(EPOCH_MS + 180_000) } });

    expect(refused.status).toBe(409);
    const now = await clockMs(sim);
    expect(now).toBeGreaterThan(EPOCH_MS);
    expect(now).toBeLessThan(EPOCH_MS + 180_000);
    expect(refused.body).toEqual({
      error: {
        code: 'request_rejected',
        message: `The advance was refused after running ${BOUND} jobs (the per-advance bound) with jobs still due before ${iso(EPOCH_MS + 180_000)}. The clock stays at ${iso(now)}, the last instant every due job has run by; advance again to continue from there.`,
      },
    });
    // Whatever is still due is due at or after that instant.
    const next = await advance(sim, { next: true });
    expect(next.processed.length).toBeGreaterThan(0);
    for (const job of next.processed) expect(Date.parse(job.at)).toBeGreaterThanOrEqual(now);
  });

  it('never lets a job run at an instant earlier than the clock had reached; advancing again finishes the way', async () => {
    const sim = await start({ maxJobsPerAdvance: BOUND });
    await scripted(sim);
    const target = iso(EPOCH_MS + 180_000);
    let reached = await clockMs(sim);
    let refusals = 0;
    for (;;) {
      const answer = await sim.json({ method: 'POST', url: '/sim/clock/advance', body: { to: target } });
      if (answer.status === 200) {
        for (const job of answer.body.processed) expect(Date.parse(job.at)).toBeGreaterThanOrEqual(reached);
        expect(answer.body.now).toBe(target);
        break;
      }
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      refusals += 1;
      const now = await clockMs(sim);
      expect(now).toBeGreaterThanOrEqual(reached);
      reached = now;
    }
    // Nothing was left behind: whatever runs next is not due before the target.
    const after = await advance(sim, { next: true });
    for (const job of after.processed) expect(Date.parse(job.at), `${job.kind} ran at ${job.at}`).toBeGreaterThanOrEqual(EPOCH_MS + 180_000);
    expect(refusals).toBeGreaterThan(1);
  });

  it('keeps the clock where it stopped across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-runaway-'));
    try {
      const first = await start({ dir, maxJobsPerAdvance: BOUND });
      await scripted(first);
      expect((await first.json({ method: 'POST', url: '/sim/clock/advance', body: { to: iso(EPOCH_MS + 180_000) } })).status).toBe(409);
      const stopped = await clockMs(first);
      await first.destroy();

      const again = await start({ dir, maxJobsPerAdvance: BOUND });
      expect(await clockMs(again)).toBe(stopped);
      const next = await advance(again, { next: true });
      for (const job of next.processed) expect(Date.parse(job.at)).toBeGreaterThanOrEqual(stopped);
      await again.destroy();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('an advance within the bound', () => {
  it('runs exactly the bound of jobs and reaches its target', async () => {
    const sim = await start({ maxJobsPerAdvance: BOUND });
    await scripted(sim);
    // Entries at 20, 21, 22, 50 and 51 s.
    const advanced = await advance(sim, { to: iso(EPOCH_MS + 51_000) });
    expect(advanced.processed.map((job) => job.at)).toEqual([20, 21, 22, 50, 51].map((s) => iso(EPOCH_MS + s * 1000)));
    expect(advanced.now).toBe(iso(EPOCH_MS + 51_000));
  });
});
