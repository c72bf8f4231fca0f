import { afterEach, describe, expect, it } from 'vitest';
import { listingIdFor, SOLANA_INSPECTION_LISTING_ID, TOKEN_RESEARCH_LISTING_ID, WORKFLOW_LISTING_ID } from '../../fixtures/listings/index.ts';
import type { Profile } from '../../sim/domain/catalog/index.ts';
import { buy, simRun, stepsOf, stopAll, start, untilEnded } from './support.ts';

/**
 * Magic inputs (docs/magic-inputs.md): the last four characters of any string
 * input value of 16 or more characters decide how the run ends, for every
 * agent kind. The example inputs are the ones the document shows.
 */
afterEach(stopAll);

/** An example input per agent kind, ending in `suffix` (docs/magic-inputs.md). */
const KINDS: Array<{ kind: string; listingId: string; profile: Profile; input: (suffix: string) => Record<string, unknown> }> = [
  { kind: 'token_research', listingId: TOKEN_RESEARCH_LISTING_ID, profile: 'solana_sol', input: (x) => ({ chain: 'ethereum', address: `0x${'0'.repeat(36)}${x}` }) },
  {
    kind: 'research_workflow',
    listingId: WORKFLOW_LISTING_ID,
    profile: 'sim',
    input: (x) => ({ workflow: 'service.workflow.v1', chain: 'ethereum', values: { protocol: `Example Lending ${x}`, question: 'Who can upgrade the pool contracts?' } }),
  },
  {
    kind: 'solana_transaction_inspection',
    listingId: SOLANA_INSPECTION_LISTING_ID,
    profile: 'solana_sol',
    input: (x) => ({ analysisChain: 'solana', network: 'mainnet-beta', encoding: 'base64', payloadBase64: `AQABAgMEBQYHCAkKCwwNDg8Q${x}` }),
  },
  { kind: 'named_fields', listingId: listingIdFor('wallet-flow-tracer'), profile: 'local_custody', input: (x) => ({ chain: 'ethereum', wallet: `0x${'0'.repeat(36)}${x}` }) },
];

describe.each(KINDS)('magic suffixes on a $kind agent', ({ kind, listingId, profile, input }) => {
  it('each suffix ends the run as documented', async () => {
    const s = await start();
    const outcomes: Record<string, unknown> = {};
    for (const suffix of ['fa11', 'dead', '0a0a', '0b0b', 'c0de', '5105']) {
      const p = await buy(s, profile, { listingId, input: input(suffix) });
      expect(p.quote.agentKind).toBe(kind);
      const { run: queued } = await simRun(s, p.run.id);
      expect(queued.plan.source, suffix).toBe('magic-input');
      const { run, billing, events } = await untilEnded(s, p.run.id);
      outcomes[suffix] = {
        status: run.status,
        error: run.error === null ? null : { kind: run.error.kind, reason: run.error.reason },
        gaps: run.plan.coverageGaps,
        billing: billing.status,
        unresolved: billing.unresolvedRpcCalls,
        charged: billing.settlement?.chargedAtomic ?? null,
        atDeadline: run.updatedAt === run.deadlineAt,
      };
      if (suffix === 'c0de') expect(stepsOf(events).at(-1)).toBe('billing-pending');
      if (suffix === '5105') expect(stepsOf(events)).toContain('deadline-exceeded');
    }
    expect(outcomes).toEqual({
      fa11: { status: 'failed', error: { kind: 'research', reason: undefined }, gaps: [], billing: 'settled', unresolved: 0, charged: '0', atDeadline: false },
      dead: { status: 'failed', error: { kind: 'platform', reason: undefined }, gaps: [], billing: 'settled', unresolved: 0, charged: '0', atDeadline: false },
      '0a0a': { status: 'partial', error: null, gaps: ['controls'], billing: 'settled', unresolved: 0, charged: '0', atDeadline: false },
      '0b0b': { status: 'partial', error: null, gaps: ['totalSupply'], billing: 'settled', unresolved: 0, charged: '0', atDeadline: false },
      c0de: { status: 'succeeded', error: null, gaps: [], billing: 'pending', unresolved: 3, charged: null, atDeadline: false },
      '5105': { status: 'failed', error: { kind: 'platform', reason: 'deadline-exceeded' }, gaps: [], billing: 'settled', unresolved: 0, charged: '0', atDeadline: true },
    });
  });
});

describe('what counts as a magic input', () => {
  it('the suffix is case-insensitive', async () => {
    const s = await start();
    const p = await buy(s, 'sim', { listingId: WORKFLOW_LISTING_ID, input: KINDS[1].input('FA11') });
    expect((await simRun(s, p.run.id)).run.plan).toMatchObject({ source: 'magic-input', outcome: 'failed', failure: 'research' });
  });

  it('a value shorter than 16 characters is not magic, and neither is another ending', async () => {
    const s = await start();
    const short = await buy(s, 'sim', { listingId: WORKFLOW_LISTING_ID, input: { workflow: 'service.workflow.v1', chain: 'ethereum', values: { protocol: 'Lending fa11', question: 'Short?' } } });
    expect('Lending fa11'.length).toBeLessThan(16);
    expect((await simRun(s, short.run.id)).run.plan.source).toBe('listing-default');
    const plain = await buy(s, 'solana_sol', { input: { chain: 'ethereum', address: `0x${'0'.repeat(36)}fa12` } });
    expect((await simRun(s, plain.run.id)).run.plan.source).toBe('listing-default');
  });

  it('exactly 16 characters is enough', async () => {
    const s = await start();
    const protocol = 'Lending Pro fa11';
    expect(protocol).toHaveLength(16);
    const p = await buy(s, 'sim', { listingId: WORKFLOW_LISTING_ID, input: { workflow: 'service.workflow.v1', chain: 'ethereum', values: { protocol, question: 'Short?' } } });
    expect((await simRun(s, p.run.id)).run.plan).toMatchObject({ source: 'magic-input', failure: 'research' });
  });
});
