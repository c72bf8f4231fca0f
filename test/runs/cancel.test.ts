import { afterEach, describe, expect, it } from 'vitest';
import { billing, buy, MSG, simRun, stepsOf, stopAll, start, untilEnded, untilStep } from './support.ts';

/** POST /v1/runs/{id}/cancel (spec 3.2, 4.7): queued or running → cancelled; an ended run is returned as is. */
afterEach(stopAll);

const cancel = (s: Awaited<ReturnType<typeof start>>, runId: string, key: string) => s.json({ method: 'POST', url: `/v1/runs/${runId}/cancel`, key });

describe('POST /v1/runs/{id}/cancel', () => {
  it('queued → cancelled: the worker never starts it and the account may run again', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const cancelled = await cancel(s, p.run.id, p.key);
    expect(cancelled.status).toBe(200);
    expect(Object.keys(cancelled.body)).toEqual(['run']);
    expect(cancelled.body.run).toMatchObject({ id: p.run.id, status: 'cancelled', rpcUsed: 0, deadlineAt: null, output: null });
    const { run, events } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('cancelled');
    expect(stepsOf(events)).toEqual(['queued', 'cancel-requested', 'cancelled', 'settled']);
    // No worker step remains for it.
    const job = s.sim.deps.store.get('jobs', `run.step:${p.run.id}`);
    expect(job).toBeUndefined();
    // Its place among the account's 3 active runs is free again.
    expect(s.sim.deps.store.get('accounts', p.accountId)!.activeRunIds).not.toContain(p.run.id);
  });

  it('running → cancelled: no further step runs and no report is written', async () => {
    const s = await start();
    const p = await buy(s, 'sim');
    const { run: running } = await untilStep(s, p.run.id, ({ run }) => run.rpcUsed > 0);
    expect(running.status).toBe('running');
    const cancelled = await cancel(s, p.run.id, p.key);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.run).toMatchObject({ status: 'cancelled', rpcUsed: running.rpcUsed, output: null });
    await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 3600 } });
    const { run, events } = await simRun(s, p.run.id);
    expect(run).toMatchObject({ status: 'cancelled', rpcUsed: running.rpcUsed, output: null });
    expect(stepsOf(events)).toEqual(['queued', 'started', 'chain-reads', 'cancel-requested', 'cancelled', 'settled']);
    // Its export is refused saying why: cancelled, so no report (not "yet").
    const exported = await s.json({ url: `/v1/runs/${p.run.id}/export`, key: p.key });
    expect(exported.status).toBe(409);
    expect(exported.body.error.message).toBe('This run was cancelled, so it has no report to export.');
  });

  it('an ended run is returned unchanged with 200, and repeating a cancel is safe', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const { run: ended } = await untilEnded(s, p.run.id);
    expect(ended.status).toBe('succeeded');
    const viewBefore = (await s.json({ url: `/v1/runs/${p.run.id}`, key: p.key })).body;
    const billingBefore = await billing(s, p);
    for (let i = 0; i < 2; i += 1) {
      const again = await cancel(s, p.run.id, p.key);
      expect(again.status).toBe(200);
      expect(again.body.run).toEqual(viewBefore.run);
    }
    expect((await s.json({ url: `/v1/runs/${p.run.id}`, key: p.key })).body).toEqual(viewBefore);
    expect(await billing(s, p)).toEqual(billingBefore);

    const c = await buy(s, 'solana_sol');
    const first = await cancel(s, c.run.id, c.key);
    const settled = await billing(s, c);
    const second = await cancel(s, c.run.id, c.key);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await billing(s, c)).toEqual(settled);
    expect(stepsOf((await simRun(s, c.run.id)).events).filter((step) => step === 'cancelled')).toHaveLength(1);
  });

  it('a key without runs:cancel gets 403 and the run carries on', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const created = await s.json({ method: 'POST', url: `/sim/accounts/${p.accountId}/keys`, body: { profile: 'solana_sol', spendLimitAtomic: '1000000000' } });
    expect(created.status).toBe(201);
    expect(created.body.key.scopes).not.toContain('runs:cancel');
    const refused = await cancel(s, p.run.id, created.body.secret);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(MSG.missingScope);
    expect((await simRun(s, p.run.id)).run.status).toBe('queued');
    // The same key can still read it.
    expect((await s.json({ url: `/v1/runs/${p.run.id}`, key: created.body.secret })).status).toBe(200);
  });

  it('another account’s run, or an unknown id, is 404 and is not cancelled', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    const other = await cancel(s, p.run.id, s.secret('local_custody'));
    expect(other.status).toBe(404);
    expect(other.body).toEqual(MSG.runNotFound);
    expect((await cancel(s, '00000000-0000-4000-8000-000000000000', p.key)).body).toEqual(MSG.runNotFound);
    expect((await simRun(s, p.run.id)).run.status).toBe('queued');
    expect((await cancel(s, 'not-a-uuid', p.key)).status).toBe(400);
  });
});
