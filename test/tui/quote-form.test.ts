import { describe, expect, it } from 'vitest';
import type { AgentDetail } from '../../src/client/index.ts';
import { buildQuoteForm, quoteBody, rowProblem, WORKFLOW_ID } from '../../src/tui/quote-form.ts';
import { refusalMeaning } from '../../src/tui/refusals.ts';

/** The quote builder's form as data: generated from inputFields (spec 2.5) into the bodies of spec 4.3. */

const field = (name: string, extra: Record<string, unknown> = {}) => ({ name, label: name, description: '', maxLength: 100, type: 'string', required: true, ...extra });
const agent = (overrides: Partial<AgentDetail>): AgentDetail => ({
  listingId: '00000000-0000-4000-8000-000000000001',
  name: 'Agent',
  offers: [],
  permissions: [],
  limits: { maximumRpcCalls: 10, maximumDurationMs: 1000, maximumOutputBytes: 1000 },
  inputFields: [],
  resultPolicies: [{ policy: 'complete_only', isDefault: true, resultContract: '' }],
  refundPolicy: [],
  limitations: [],
  ...overrides,
});

describe('quote form', () => {
  it('prefills the token research input so that a quote needs no typing', () => {
    const token = agent({
      agentKind: 'token_research',
      chains: ['ethereum', 'base', 'chainx'],
      inputFields: [
        field('chain', { enum: ['ethereum', 'base', 'chainx'] }),
        field('address', { pattern: '^0x[a-fA-F0-9]{40}$' }),
        field('scope', { required: false, enum: ['metadata-and-controls'] }),
        field('snapshotBlock', { required: false, pattern: '^(0|[1-9][0-9]{0,77})$' }),
      ],
      resultPolicies: [
        { policy: 'complete_only', isDefault: true },
        { policy: 'canonical_metadata', isDefault: false },
      ],
    });
    const rows = buildQuoteForm(token, { profile: 'local_custody', assetId: 'eip155:4663/native' });
    expect(rows.map((r) => r.name)).toEqual(['chain', 'address', 'scope', 'snapshotBlock', 'resultPolicy']);
    expect(rows.every((r) => rowProblem(r) === null)).toBe(true);
    expect(rows.find((r) => r.name === 'resultPolicy')!.choices).toEqual(['complete_only', 'canonical_metadata']);
    const body = quoteBody(token.listingId, rows);
    expect(body).toEqual({ listingId: token.listingId, input: { chain: 'ethereum', address: expect.stringMatching(/^0x[a-fA-F0-9]{40}$/) }, resultPolicy: 'complete_only' });
    // No demo value ends in a magic suffix (docs/magic-inputs.md).
    expect(String(body.input.address).slice(-4).toLowerCase()).not.toMatch(/^(fa11|dead|0a0a|0b0b|c0de|5105)$/);
  });

  it('builds a research workflow input: fixed workflow id, a chain, values by inputFields', () => {
    const workflow = agent({
      agentKind: 'research_workflow',
      chains: ['ethereum', 'base'],
      inputFields: [field('protocol'), field('question'), field('depth', { required: false, enum: ['quick', 'standard', 'deep'] })],
    });
    const rows = buildQuoteForm(workflow, null);
    expect(rows.find((r) => r.name === 'workflow')).toMatchObject({ kind: 'fixed', value: WORKFLOW_ID });
    expect(rows.find((r) => r.name === 'resultPolicy')).toMatchObject({ kind: 'fixed', value: 'complete_only' });
    expect(quoteBody(workflow.listingId, rows).input).toEqual({ workflow: WORKFLOW_ID, chain: 'ethereum', values: { protocol: 'Example Lending Protocol', question: expect.any(String) } });
  });

  it('takes Solana inspection fields as named fields, and offers the asset to Solana keys only', () => {
    const inspector = agent({
      agentKind: 'solana_transaction_inspection',
      chains: ['solana'],
      offers: [
        { profile: 'solana_sol', enabled: true, assetId: 'solana:mainnet-beta/native' },
        { profile: 'solana_usdc', enabled: true, assetId: 'solana:mainnet-beta/spl:mint' },
      ],
      inputFields: [
        field('analysisChain', { enum: ['solana'] }),
        field('network', { enum: ['mainnet-beta', 'devnet'] }),
        field('encoding', { enum: ['base64'] }),
        field('payloadBase64', { pattern: '^[A-Za-z0-9+/]+={0,2}$' }),
      ],
    });
    const rows = buildQuoteForm(inspector, { profile: 'solana_usdc', assetId: 'solana:mainnet-beta/spl:mint' });
    const body = quoteBody(inspector.listingId, rows);
    expect(body.input).toEqual({ analysisChain: 'solana', network: 'mainnet-beta', encoding: 'base64', payloadBase64: expect.stringMatching(/^[A-Za-z0-9+/]+$/) });
    expect(body.assetId).toBe('solana:mainnet-beta/spl:mint');
    expect(rows.find((r) => r.name === 'assetId')!.choices).toEqual(['', 'solana:mainnet-beta/native', 'solana:mainnet-beta/spl:mint']);
    expect(buildQuoteForm(inspector, { profile: 'local_custody' }).some((r) => r.name === 'assetId')).toBe(false);
  });

  it('explains refusals by code, then message, then status', () => {
    expect(refusalMeaning('quote_expired', 409, 'x')).toMatch(/create a new quote/);
    expect(refusalMeaning('request_rejected', 403, 'Accepting this quote would exceed the API key spend limit.')).toMatch(/spend limit/);
    expect(refusalMeaning('request_rejected', 429, 'Too many requests. Try again shortly.')).toMatch(/wait and retry/);
    expect(refusalMeaning('something_else', null, 'x')).toBeNull();
  });
});
