import { afterEach, describe, expect, it } from 'vitest';
import { WORKFLOW_LISTING_ID } from '../../fixtures/listings/index.ts';
import type { TestSimulator } from '../helpers/simulator.ts';
import {
  buy, DEMO_DEPOSIT, expectMoneyAfter, expectSettlement, RAIL, script, simRun, stopAll, start, terms, tokenInput, untilEnded, untilStep,
  type Purchase,
} from './support.ts';

/**
 * Spec 3.4: complete_only charges only a complete report; canonical_metadata
 * (token research agent only) also charges a partial report, but only when the
 * five canonical facts were observed with evidence at one pinned block that is
 * still canonical when the run completes.
 */
afterEach(stopAll);

/** Reorganises the chain from the run's pinned block up (POST /sim/chains/{chain}/reorg) while the run is running. */
async function reorgPinnedBlock(s: TestSimulator, p: Purchase): Promise<{ blockNumber: string; blockHash: string }> {
  const { run } = await untilStep(s, p.run.id, ({ run: r }) => r.status === 'running');
  expect(run.pinned).toMatchObject({ chain: 'ethereum', blockNumber: expect.stringMatching(/^[0-9]+$/), blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  const head = (await s.json({ url: '/sim/chains/ethereum' })).body.head;
  const depth = Number(BigInt(head) - BigInt(run.pinned.blockNumber)) + 1;
  const reorged = await s.json({ method: 'POST', url: '/sim/chains/ethereum/reorg', body: { depth } });
  expect(reorged.status, JSON.stringify(reorged.body)).toBe(200);
  expect(reorged.body.blocks[0].number).toBe(run.pinned.blockNumber);
  expect(reorged.body.blocks[0].hash).not.toBe(run.pinned.blockHash);
  expect((await simRun(s, p.run.id)).run.status).toBe('running');
  return run.pinned;
}

function fullCharge(p: Purchase, run: any) {
  const t = terms(p.quote);
  const execution = BigInt(run.rpcUsed) * t.rate + BigInt(run.plan.modelCostAtomic);
  return { t, execution, charged: t.gross + execution };
}

describe('canonical_metadata on the token research agent', () => {
  it('is bound into the quote and its result contract', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata' });
    expect(p.quote.resultPolicy).toBe('canonical_metadata');
    expect(p.quote.resultContract).toMatch(/complete or partial report only when name, symbol, decimals, total supply and deployed bytecode/);
  });

  it('charges a complete report', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata' });
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
    const { t, execution, charged } = fullCharge(p, run);
    expectSettlement(billing, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged });
  });

  it('charges a partial report whose five canonical facts were observed (0a0a)', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata', input: tokenInput('0a0a') });
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('partial');
    expect(run.plan.coverageGaps).toEqual(['controls']);
    for (const fact of ['name', 'symbol', 'decimals', 'totalSupply', 'bytecode']) {
      expect(run.output.facts[fact]).toMatchObject({ observed: true, evidence: { status: 'ok', blockNumber: run.pinned.blockNumber, blockHash: run.pinned.blockHash } });
    }
    expect(run.output.controls.observed).toBe(false);
    const { t, execution, charged } = fullCharge(p, run);
    expectSettlement(billing, p.quote, { outcome: 'partial', creatorFee: t.creator, platformFee: t.platform, execution });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged });
  });

  it('does not charge a partial report missing totalSupply (0b0b)', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata', input: tokenInput('0b0b') });
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('partial');
    expect(run.output.facts.totalSupply.observed).toBe(false);
    expectSettlement(billing, p.quote, { outcome: 'partial', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 0n });
  });

  it('does not charge a scripted partial whose gap is one of the five facts', async () => {
    const s = await start();
    const p = await buy(s, 'local_custody', { resultPolicy: 'canonical_metadata' });
    expect((await script(s, p.run.id, { outcome: 'partial', coverageGaps: ['bytecode'] })).status).toBe(200);
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.output.facts.bytecode.observed).toBe(false);
    expectSettlement(billing, p.quote, { outcome: 'partial', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.local_custody, { charged: 0n });
  });

  it('does not charge a 0a0a partial after a reorg replaced the pinned block', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata', input: tokenInput('0a0a') });
    const pinned = await reorgPinnedBlock(s, p);
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('partial');
    // The report still carries the evidence of the block it observed, which is no longer canonical.
    expect(run.output.pinnedBlock).toEqual({ number: pinned.blockNumber, hash: pinned.blockHash });
    expectSettlement(billing, p.quote, { outcome: 'partial', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 0n });
  });

  it('does not charge a complete report after a reorg replaced the pinned block', async () => {
    const s = await start();
    const p = await buy(s, 'sim', { resultPolicy: 'canonical_metadata' });
    await reorgPinnedBlock(s, p);
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('succeeded');
    expectSettlement(billing, p.quote, { outcome: 'succeeded', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.sim, { charged: 0n });
  });

  it('a reorg of newer blocks only leaves the charge alone', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata', input: tokenInput('0a0a') });
    const { run: started } = await untilStep(s, p.run.id, ({ run }) => run.status === 'running');
    const mined = await s.json({ method: 'POST', url: '/sim/chains/ethereum/blocks', body: { count: 3 } });
    expect(mined.status).toBe(201);
    const reorged = await s.json({ method: 'POST', url: '/sim/chains/ethereum/reorg', body: { depth: 2 } });
    expect(reorged.status).toBe(200);
    expect(reorged.body.blocks.every((b: { number: string }) => BigInt(b.number) > BigInt(started.pinned.blockNumber))).toBe(true);
    const { run, billing } = await untilEnded(s, p.run.id);
    const { t, execution } = fullCharge(p, run);
    expectSettlement(billing, p.quote, { outcome: 'partial', creatorFee: t.creator, platformFee: t.platform, execution });
  });

  it('cancelled: execution incurred only, as under complete_only', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { resultPolicy: 'canonical_metadata', input: tokenInput('0a0a') });
    const t = terms(p.quote);
    const { run } = await untilStep(s, p.run.id, ({ run: r }) => r.rpcUsed > 0);
    await s.json({ method: 'POST', url: `/v1/runs/${p.run.id}/cancel`, key: p.key });
    const { billing } = await simRun(s, p.run.id);
    expectSettlement(billing, p.quote, { outcome: 'cancelled', creatorFee: 0n, platformFee: 0n, execution: BigInt(run.rpcUsed) * t.rate });
  });

  it('is refused with 400 for any other agent', async () => {
    const s = await start();
    const refused = await s.json({
      method: 'POST',
      url: `${RAIL.sim}/quotes`,
      key: s.secret('sim'),
      body: { listingId: WORKFLOW_LISTING_ID, input: { workflow: 'service.workflow.v1', chain: 'ethereum', values: { protocol: 'Example', question: 'Who can upgrade it?' } }, resultPolicy: 'canonical_metadata' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_input');
    expect(refused.body.error.message).toMatch(/resultPolicy/);
  });
});

describe('complete_only', () => {
  it('does not charge a 0a0a partial, even with the five facts observed', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol', { input: tokenInput('0a0a') });
    const { run, billing } = await untilEnded(s, p.run.id);
    expect(run.status).toBe('partial');
    expect(run.output.facts.totalSupply.observed).toBe(true);
    expectSettlement(billing, p.quote, { outcome: 'partial', creatorFee: 0n, platformFee: 0n, execution: 0n });
    await expectMoneyAfter(s, p, DEMO_DEPOSIT.solana_sol, { charged: 0n });
  });

  it('still charges a complete report after a reorg of the pinned block (canonicality is a canonical_metadata condition)', async () => {
    const s = await start();
    const p = await buy(s, 'solana_sol');
    await reorgPinnedBlock(s, p);
    const { run, billing } = await untilEnded(s, p.run.id);
    const { t, execution } = fullCharge(p, run);
    expectSettlement(billing, p.quote, { outcome: 'succeeded', creatorFee: t.creator, platformFee: t.platform, execution });
  });
});
