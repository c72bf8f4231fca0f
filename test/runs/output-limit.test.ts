import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { accountOf, buy, simRun, stepsOf, start, stopAll, tokenInput, untilEnded } from './support.ts';
import type { TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 13 point 10. Spec 3.3: only a complete report satisfying the result contract is
 * charged; spec 3.4: complete_only charges only a complete report, canonical_metadata a
 * complete or partial one. A report over the agent's maximumOutputBytes (its detail,
 * spec 8) cannot be delivered whole, so the run ends failed and nothing is charged.
 */
afterEach(stopAll);

async function maximumOutputBytes(s: TestSimulator): Promise<number> {
  const response = await s.json({ url: `/v1/public/agents/${TOKEN_RESEARCH_LISTING_ID}` });
  expect(response.status).toBe(200);
  return response.body.agent.limits.maximumOutputBytes;
}

async function availableOf(s: TestSimulator, accountId: string, profile: string): Promise<string> {
  const { body } = await s.json({ url: `/sim/accounts/${accountId}` });
  return body.balances.find((b: any) => b.profile === profile).availableAtomic;
}

describe('a report over maximumOutputBytes', () => {
  it.each(['complete_only', 'canonical_metadata'])('ends the run failed (a report failure) with nothing charged, under %s', async (resultPolicy) => {
    const s = await start();
    const accountId = accountOf(s, 'solana_sol');
    const before = await availableOf(s, accountId, 'solana_sol');
    // The magic suffix b10b (docs/magic-inputs.md) writes a report one byte over the limit.
    const bought = await buy(s, 'solana_sol', { input: tokenInput('b10b'), resultPolicy });
    const limit = await maximumOutputBytes(s);
    const { run, billing, events } = await untilEnded(s, bought.run.id);
    expect(run.plan).toMatchObject({ source: 'magic-input', outputBytes: limit + 1 });
    expect(run.status).toBe('failed');
    expect(run.output).toBeNull();
    expect(run.error).toEqual({
      kind: 'report',
      reason: 'output-limit-exceeded',
      message: `The report (${limit + 1} bytes) exceeded the agent's maximumOutputBytes (${limit}); it was not delivered.`,
    });
    expect(stepsOf(events).slice(-2)).toEqual(['failed', 'settled']);
    expect(stepsOf(events)).not.toContain('report');
    expect(billing.status).toBe('settled');
    expect(billing.settlement).toMatchObject({ outcome: 'failed', chargedAtomic: '0', creatorFeeAtomic: '0', executionChargeAtomic: '0' });
    expect(await availableOf(s, accountId, 'solana_sol')).toBe(before);
    // The buyer's view: failed, no report to export.
    const read = await s.json({ url: `/v1/runs/${run.id}`, key: bought.key });
    expect(read.body.run).toMatchObject({ status: 'failed', output: null, error: { kind: 'report', reason: 'output-limit-exceeded' } });
    expect((await s.json({ url: `/v1/runs/${run.id}/export`, key: bought.key })).status).toBe(409);
  });

  it('a scripted report of exactly maximumOutputBytes is complete and charged; one byte more is not', async () => {
    const s = await start();
    const limit = await maximumOutputBytes(s);
    const endings: Record<number, unknown> = {};
    for (const outputBytes of [limit, limit + 1]) {
      const bought = await buy(s, 'solana_sol');
      const scripted = await s.json({ method: 'POST', url: `/sim/runs/${bought.run.id}/script`, body: { outcome: 'succeeded', outputBytes } });
      expect(scripted.status, JSON.stringify(scripted.body)).toBe(200);
      expect((await simRun(s, bought.run.id)).run.plan.outputBytes).toBe(outputBytes);
      const { run, billing } = await untilEnded(s, bought.run.id);
      const read = await s.request({ url: `/v1/runs/${run.id}`, key: bought.key });
      const output = JSON.parse(read.body).run.output;
      endings[outputBytes] = {
        status: run.status,
        reportBytes: output === null ? null : Buffer.byteLength(JSON.stringify(output)),
        charged: billing.settlement.chargedAtomic !== '0',
      };
    }
    expect(endings).toEqual({
      [limit]: { status: 'succeeded', reportBytes: limit, charged: true },
      [limit + 1]: { status: 'failed', reportBytes: null, charged: false },
    });
  });

  it('the script refuses an outputBytes out of bounds, naming the field', async () => {
    const s = await start();
    const bought = await buy(s, 'solana_sol');
    for (const outputBytes of [0, 2_097_153, 1.5]) {
      const response = await s.json({ method: 'POST', url: `/sim/runs/${bought.run.id}/script`, body: { outcome: 'succeeded', outputBytes } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain('outputBytes');
    }
    expect((await simRun(s, bought.run.id)).run.plan.source).not.toBe('script');
  });
});
