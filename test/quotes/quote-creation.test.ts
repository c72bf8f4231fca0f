import { describe, expect, it } from 'vitest';
import {
  CREATOR_TEST_LISTING_ID, listingIdFor, MONITORING_LISTING_ID, SOLANA_INSPECTION_LISTING_ID, TOKEN_RESEARCH_LISTING_ID, WORKFLOW_LISTING_ID,
} from '../../fixtures/listings/index.ts';
import { startSimulator } from '../helpers/simulator.ts';
import {
  ASSET_ID, createKey, createQuote, ETH_ASSET, EVM_ADDRESS, LISTING_NOT_ALLOWED, LISTING_NOT_FOUND, observe, OTHER_ENVIRONMENT, provision, quoteOk,
  RAIL, SIM_ASSET, SOL_ASSET, tokenInput, USDC_ASSET, type Buyer, type Profile, sharedBuyers } from './support.ts';

/** Quote creation (spec 3.1, 4.3, 5, 7, 8): each refusal with its status, code and message, and proof that nothing changed. */

const HOLDER_REPORT_ID = listingIdFor('holder-concentration-report'); // named fields; chains ethereum, base
const SPL_PROFILER_ID = listingIdFor('spl-token-profiler'); // SOL offer listed but disabled
const TOKEN_UNLOCK_ID = listingIdFor('token-unlock-calendar'); // local_custody and sim only

const INSPECTION_INPUT = { analysisChain: 'solana', network: 'mainnet-beta', encoding: 'base64', payloadBase64: 'AQIDBA==' };
const WORKFLOW_INPUT = { workflow: 'service.workflow.v1', chain: 'ethereum', values: { protocol: 'Example Finance', question: 'Who can upgrade the vault?' } };

const shared = sharedBuyers();

type Expected = { status: number; code?: string; message?: string | RegExp; body?: unknown };

/** Sends a quote request that must be refused as expected and must change nothing for the account. */
async function refused(buyer: Buyer, body: unknown, expected: Expected, url = `${RAIL[buyer.profile]}/quotes`) {
  const others = Object.values(shared.buyers).filter((b) => b.accountId === buyer.accountId).map((b) => b.secret);
  const before = await observe(shared.s, buyer.accountId, others);
  const quotesBefore = shared.s.sim.deps.store.count('quotes');
  const r = await shared.s.json({ method: 'POST', url, key: buyer.secret, body });
  expect(r.status, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).toBe(expected.status);
  expect(Object.keys(r.body)).toEqual(['error']);
  if (expected.body) expect(r.body).toEqual(expected.body);
  if (expected.code) expect(r.body.error.code).toBe(expected.code);
  if (typeof expected.message === 'string') expect(r.body.error.message).toBe(expected.message);
  else if (expected.message) expect(r.body.error.message).toMatch(expected.message);
  expect(shared.s.sim.deps.store.count('quotes')).toBe(quotesBefore);
  expect(await observe(shared.s, buyer.accountId, others)).toEqual(before);
  return r;
}
const invalid = (message: RegExp): Expected => ({ status: 400, code: 'invalid_input', message });

describe('input shape per agent kind (400, the message names the field)', () => {
  const token = (input: unknown) => ({ listingId: TOKEN_RESEARCH_LISTING_ID, input });

  it('token research: chain and address are required, address and snapshotBlock follow their patterns, no other fields', async () => {
    const b = shared.buyers.local_custody;
    await refused(b, token({ address: EVM_ADDRESS }), invalid(/chain/));
    await refused(b, token({ chain: 'ethereum' }), invalid(/address/));
    await refused(b, token({ chain: 'ethereum', address: '0x1234' }), invalid(/address/));
    await refused(b, token({ chain: 'ethereum', address: 'ab'.repeat(21) }), invalid(/address/));
    await refused(b, token({ chain: 'ethereum', address: '0x' + 'g'.repeat(40) }), invalid(/address/));
    await refused(b, token({ ...tokenInput(), color: 'blue' }), invalid(/color/));
    await refused(b, token({ ...tokenInput(), snapshotBlock: '01' }), invalid(/snapshotBlock/));
    await refused(b, token({ ...tokenInput(), snapshotBlock: '-1' }), invalid(/snapshotBlock/));
    await refused(b, token({ ...tokenInput(), snapshotBlock: '12a' }), invalid(/snapshotBlock/));
    await refused(b, token({ ...tokenInput(), snapshotBlock: '1' + '0'.repeat(78) }), invalid(/snapshotBlock/));
    await refused(b, token({ ...tokenInput(), snapshotBlock: 19000000 }), invalid(/snapshotBlock/));
    await refused(b, token({ ...tokenInput(), scope: 'everything' }), invalid(/scope/));
    await refused(b, token({ chain: 1, address: EVM_ADDRESS }), invalid(/chain/));
    await refused(b, token([]), invalid(/input/));
    await refused(b, token('ethereum'), invalid(/input/));
    await refused(b, { listingId: TOKEN_RESEARCH_LISTING_ID }, invalid(/input/));
    // The boundaries that pass.
    expect((await quoteOk(shared.s, b, TOKEN_RESEARCH_LISTING_ID, { ...tokenInput(), snapshotBlock: '0' })).input.snapshotBlock).toBe('0');
    expect((await quoteOk(shared.s, b, TOKEN_RESEARCH_LISTING_ID, { ...tokenInput(), snapshotBlock: '9'.repeat(78) })).input.snapshotBlock).toBe('9'.repeat(78));
    const defaulted = await quoteOk(shared.s, b, TOKEN_RESEARCH_LISTING_ID, tokenInput());
    expect(defaulted.input).toEqual({ ...tokenInput(), scope: 'metadata-and-controls' });
  });

  it('token research: a chain the listing does not run on', async () => {
    await refused(shared.buyers.local_custody, token({ chain: 'solana', address: EVM_ADDRESS }), invalid(/chain/));
    await refused(shared.buyers.local_custody, token({ chain: 'polygon', address: EVM_ADDRESS }), invalid(/chain/));
  });

  it('workflow: the workflow id, value names from inputFields, required values, a chain of the listing', async () => {
    const b = shared.buyers.local_custody;
    const wf = (input: unknown) => ({ listingId: WORKFLOW_LISTING_ID, input });
    await refused(b, wf({ ...WORKFLOW_INPUT, workflow: 'service.workflow.v2' }), invalid(/workflow/));
    const { workflow: _w, ...noWorkflow } = WORKFLOW_INPUT;
    await refused(b, wf(noWorkflow), invalid(/workflow/));
    await refused(b, wf({ ...WORKFLOW_INPUT, values: { ...WORKFLOW_INPUT.values, audience: 'board' } }), invalid(/audience/));
    await refused(b, wf({ ...WORKFLOW_INPUT, values: { protocol: 'Example Finance' } }), invalid(/question/));
    await refused(b, wf({ ...WORKFLOW_INPUT, values: { ...WORKFLOW_INPUT.values, depth: 'bottomless' } }), invalid(/depth/));
    await refused(b, wf({ ...WORKFLOW_INPUT, values: { ...WORKFLOW_INPUT.values, question: 42 } }), invalid(/question/));
    await refused(b, wf({ ...WORKFLOW_INPUT, values: 'who' }), invalid(/values/));
    await refused(b, wf({ ...WORKFLOW_INPUT, chain: 'solana' }), invalid(/chain/));
    const { chain: _c, ...noChain } = WORKFLOW_INPUT;
    await refused(b, wf(noChain), invalid(/chain/));
    await refused(b, wf({ ...WORKFLOW_INPUT, extra: true }), invalid(/extra/));
    // The same input with a known optional value passes.
    const quote = await quoteOk(shared.s, b, WORKFLOW_LISTING_ID, { ...WORKFLOW_INPUT, values: { ...WORKFLOW_INPUT.values, depth: 'deep' } });
    expect(quote.input).toEqual({ ...WORKFLOW_INPUT, values: { ...WORKFLOW_INPUT.values, depth: 'deep' } });
    expect(quote.agentKind).toBe('research_workflow');
  });

  it('Solana transaction inspection: analysisChain, network, encoding, payloadBase64', async () => {
    const b = shared.buyers.solana_sol;
    const insp = (input: unknown) => ({ listingId: SOLANA_INSPECTION_LISTING_ID, assetId: SOL_ASSET, input });
    await refused(b, insp({ ...INSPECTION_INPUT, analysisChain: 'ethereum' }), invalid(/analysisChain/));
    await refused(b, insp({ ...INSPECTION_INPUT, network: 'testnet' }), invalid(/network/));
    await refused(b, insp({ ...INSPECTION_INPUT, encoding: 'hex' }), invalid(/encoding/));
    await refused(b, insp({ ...INSPECTION_INPUT, payloadBase64: 'not base64!' }), invalid(/payloadBase64/));
    await refused(b, insp({ ...INSPECTION_INPUT, payloadBase64: 'A'.repeat(4097) }), invalid(/payloadBase64/));
    const { payloadBase64: _p, ...noPayload } = INSPECTION_INPUT;
    await refused(b, insp(noPayload), invalid(/payloadBase64/));
    await refused(b, insp({ ...INSPECTION_INPUT, chain: 'solana' }), invalid(/chain/));
    const quote = await quoteOk(shared.s, b, SOLANA_INSPECTION_LISTING_ID, INSPECTION_INPUT);
    expect(quote.input).toEqual(INSPECTION_INPUT);
    expect(quote.agentKind).toBe('solana_transaction_inspection');
  });

  it('named fields: a chain not among the listing\'s chains', async () => {
    const b = shared.buyers.local_custody;
    await refused(b, { listingId: HOLDER_REPORT_ID, input: { chain: 'chainx', address: EVM_ADDRESS } }, invalid(/chain/));
    await quoteOk(shared.s, b, HOLDER_REPORT_ID, { chain: 'base', address: EVM_ADDRESS });
  });
});

describe('body validation (400)', () => {
  it('canonical_metadata on a non-token agent, or an unknown policy', async () => {
    const b = shared.buyers.local_custody;
    await refused(b, { listingId: WORKFLOW_LISTING_ID, input: WORKFLOW_INPUT, resultPolicy: 'canonical_metadata' }, invalid(/resultPolicy/));
    await refused(b, { listingId: MONITORING_LISTING_ID, input: { windowHours: '1' }, resultPolicy: 'canonical_metadata' }, { status: 400 });
    await refused(shared.buyers.solana_usdc, { listingId: SOLANA_INSPECTION_LISTING_ID, assetId: USDC_ASSET, input: INSPECTION_INPUT, resultPolicy: 'canonical_metadata' }, invalid(/resultPolicy/));
    await refused(b, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(), resultPolicy: 'best_effort' }, invalid(/resultPolicy/));
  });

  it('an unknown body property, assetId on the custody and rehearsal routes, a bad assetId length', async () => {
    await refused(shared.buyers.local_custody, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(), priority: 'high' }, invalid(/priority/));
    await refused(shared.buyers.local_custody, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(), assetId: ETH_ASSET }, invalid(/assetId/));
    await refused(shared.buyers.sim, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(), assetId: SIM_ASSET }, invalid(/assetId/));
    await refused(shared.buyers.solana_sol, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(), assetId: '' }, invalid(/assetId/));
    await refused(shared.buyers.solana_sol, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput(), assetId: 'x'.repeat(201) }, invalid(/assetId/));
    await refused(shared.buyers.local_custody, { input: tokenInput() }, invalid(/listingId/));
  });

  it('listingId must follow the 4.3 pattern; the all-zero and all-f UUIDs pass validation and are then not found', async () => {
    const b = shared.buyers.local_custody;
    const body = (listingId: string) => ({ listingId, input: tokenInput() });
    for (const bad of [
      '850e6f23-fc83-0d0e-a832-d9de0de3dc98', // version digit 0
      '850e6f23-fc83-9d0e-a832-d9de0de3dc98', // version digit 9
      '850e6f23-fc83-4d0e-c832-d9de0de3dc98', // variant c
      '850e6f23-fc83-4d0e-7832-d9de0de3dc98', // variant 7
      '850e6f23fc834d0ea832d9de0de3dc98', // no hyphens
      '850e6f23-fc83-4d0e-a832-d9de0de3dc9', // one digit short
      'not-a-uuid',
    ]) {
      await refused(b, body(bad), invalid(/listingId/));
    }
    for (const edge of ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF']) {
      await refused(b, body(edge), { status: 404, body: LISTING_NOT_FOUND });
    }
    // Every version digit 1-8 with variants 8, 9, a, b passes validation (unknown listing: 404).
    for (const version of '12345678') {
      for (const variant of '89ab') {
        await refused(b, body(`12345678-1234-${version}234-${variant}234-123456789abc`), { status: 404, body: LISTING_NOT_FOUND });
      }
    }
    // A creator's test listing is not visible to shared.buyers.
    await refused(b, body(CREATOR_TEST_LISTING_ID), { status: 404, body: LISTING_NOT_FOUND });
  });
});

describe('one key, one asset (403)', () => {
  it('the other rail is refused for every key', async () => {
    const body = { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() };
    await refused(shared.buyers.local_custody, { ...body, assetId: SOL_ASSET }, { status: 403, body: OTHER_ENVIRONMENT }, `${RAIL.solana_sol}/quotes`);
    await refused(shared.buyers.local_custody, body, { status: 403, body: OTHER_ENVIRONMENT }, `${RAIL.sim}/quotes`);
    await refused(shared.buyers.solana_sol, body, { status: 403, body: OTHER_ENVIRONMENT }, `${RAIL.local_custody}/quotes`);
    await refused(shared.buyers.solana_usdc, body, { status: 403, body: OTHER_ENVIRONMENT }, `${RAIL.sim}/quotes`);
    await refused(shared.buyers.sim, body, { status: 403, body: OTHER_ENVIRONMENT }, `${RAIL.local_custody}/quotes`);
    await refused(shared.buyers.sim, { ...body, assetId: SOL_ASSET }, { status: 403, body: OTHER_ENVIRONMENT }, `${RAIL.solana_sol}/quotes`);
  });

  it('on the Solana route a key names only its own asset', async () => {
    const body = { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() };
    await refused(shared.buyers.solana_sol, { ...body, assetId: USDC_ASSET }, { status: 403, body: OTHER_ENVIRONMENT });
    await refused(shared.buyers.solana_usdc, { ...body, assetId: SOL_ASSET }, { status: 403, body: OTHER_ENVIRONMENT });
    await refused(shared.buyers.solana_sol, { ...body, assetId: ETH_ASSET }, { status: 403, body: OTHER_ENVIRONMENT });
    await refused(shared.buyers.solana_sol, { ...body, assetId: 'solana:mainnet-beta/spl:So11111111111111111111111111111111111111112' }, { status: 403, body: OTHER_ENVIRONMENT });
  });

  it('SOL is the default on a listing accepting both SOL and USDC: a USDC key must name its asset', async () => {
    const body = { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() };
    await refused(shared.buyers.solana_usdc, body, { status: 403, body: OTHER_ENVIRONMENT });
    const usdc = await createQuote(shared.s, shared.buyers.solana_usdc, { ...body, assetId: USDC_ASSET });
    expect(usdc.status).toBe(201);
    expect(usdc.body.quote.currencyLabel).toBe('USDC');
    expect(usdc.body.quote.asset.decimals).toBe(6);
    const sol = await createQuote(shared.s, shared.buyers.solana_sol, body);
    expect(sol.status).toBe(201);
    expect(sol.body.quote.currencyLabel).toBe('SOL');
    expect(sol.body.quote.asset).toEqual({ namespace: 'solana', cluster: 'mainnet-beta', kind: 'native', decimals: 9 });
    // A listing accepting USDC but not SOL: nothing to default to, the USDC key's own asset applies.
    const workflow = await createQuote(shared.s, shared.buyers.solana_usdc, { listingId: WORKFLOW_LISTING_ID, input: WORKFLOW_INPUT });
    expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);
    expect(workflow.body.quote.currencyLabel).toBe('USDC');
  });

  it('a listing that does not accept the key\'s currency', async () => {
    const notAccepted = { status: 403, code: 'request_rejected' };
    await refused(shared.buyers.local_custody, { listingId: SOLANA_INSPECTION_LISTING_ID, input: INSPECTION_INPUT }, notAccepted);
    await refused(shared.buyers.solana_sol, { listingId: WORKFLOW_LISTING_ID, assetId: SOL_ASSET, input: WORKFLOW_INPUT }, notAccepted);
    await refused(shared.buyers.solana_usdc, { listingId: TOKEN_UNLOCK_ID, assetId: USDC_ASSET, input: { address: EVM_ADDRESS } }, notAccepted);
    // Listed among the offers but not enabled.
    await refused(shared.buyers.solana_sol, { listingId: SPL_PROFILER_ID, assetId: SOL_ASSET, input: { mint: 'So11111111111111111111111111111111111111112' } }, notAccepted);
    await quoteOk(shared.s, shared.buyers.solana_usdc, SPL_PROFILER_ID, { mint: 'So11111111111111111111111111111111111111112' });
  });

  it('a listing outside the key\'s allowed listings', async () => {
    const restricted = await provision(shared.s, 'local_custody', { accountId: shared.buyers.local_custody.accountId, depositAtomic: '0', listingIds: [WORKFLOW_LISTING_ID] });
    await refused(restricted, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() }, { status: 403, body: LISTING_NOT_ALLOWED });
    const allowed = await quoteOk(shared.s, restricted, WORKFLOW_LISTING_ID, WORKFLOW_INPUT);
    expect(allowed.listingId).toBe(WORKFLOW_LISTING_ID);
    // The catalog stays readable.
    expect((await shared.s.json({ url: `/v1/public/agents/${TOKEN_RESEARCH_LISTING_ID}`, key: restricted.secret })).status).toBe(200);
  });

  it('a key without quotes:write', async () => {
    const key = await createKey(shared.s, shared.buyers.local_custody.accountId, { profile: 'local_custody', spendLimitAtomic: '1', scopes: ['catalog:read'] });
    const buyer = { ...shared.buyers.local_custody, secret: key.secret, keyId: key.id };
    await refused(buyer, { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() }, { status: 403, body: { error: { code: 'request_rejected', message: 'This API key does not have the scope required for this route.' } } });
  });
});

describe('environment and rate limits', () => {
  it('rehearsal routes answer 503 in production; the custody route works', async () => {
    const prod = await startSimulator({ env: 'production', demo: false });
    try {
      const buyer = await provision(prod, 'local_custody');
      const quotesBefore = prod.sim.deps.store.count('quotes');
      const body = { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() };
      const rehearsal = await prod.json({ method: 'POST', url: '/v1/rehearsal/quotes', key: buyer.secret, body });
      expect(rehearsal.status).toBe(503);
      expect(typeof rehearsal.body.error.code).toBe('string');
      expect(rehearsal.body.error.message.length).toBeGreaterThan(0);
      const custodyQuote = await prod.json({ method: 'POST', url: '/v1/custody/quotes', key: buyer.secret, body });
      expect(custodyQuote.status).toBe(201);
      const acceptRehearsal = await prod.json({
        method: 'POST',
        url: `/v1/rehearsal/quotes/${custodyQuote.body.quote.id}/accept`,
        key: buyer.secret,
        body: { acceptedContractHash: custodyQuote.body.quote.contractHash, idempotencyKey: 'prod-accept-1' },
      });
      expect(acceptRehearsal.status).toBe(503);
      expect((await prod.json({ url: '/v1/rehearsal/catalog', key: buyer.secret })).status).toBe(503);
      expect(prod.sim.deps.store.count('quotes')).toBe(quotesBefore + 1);
      expect(prod.sim.deps.store.count('runs')).toBe(0);
      // The sim profile itself is refused in production.
      const simKey = await prod.json({ method: 'POST', url: `/sim/accounts/${buyer.accountId}/keys`, body: { profile: 'sim', spendLimitAtomic: '1' } });
      expect(simKey.status).toBe(503);
    } finally {
      await prod.destroy();
    }
  });

  it('quote creation is limited to 10 per minute per client address, across keys (429 with Retry-After)', async () => {
    const limited = await startSimulator({ limits: true, demo: false });
    try {
      const one = await provision(limited, 'local_custody');
      const two = await provision(limited, 'sim', { accountId: one.accountId });
      const three = await provision(limited, 'solana_sol');
      for (let i = 0; i < 10; i++) await quoteOk(limited, i % 2 ? one : two, TOKEN_RESEARCH_LISTING_ID);
      const count = limited.sim.deps.store.count('quotes');
      expect(count).toBe(10);
      const over = await limited.json({ method: 'POST', url: '/v1/solana-custody/quotes', key: three.secret, body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: tokenInput() } });
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: { code: 'request_rejected', message: 'Too many requests. Try again shortly.' } });
      const retryAfter = Number(over.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.sim.deps.store.count('quotes')).toBe(count);
      // Other keyed routes are not quote creations.
      expect((await limited.json({ url: '/v1/buyer/key', key: three.secret })).status).toBe(200);
      // After Retry-After seconds on the virtual clock a slot is free again.
      const adv = await limited.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: retryAfter } });
      expect(adv.status).toBe(200);
      await quoteOk(limited, three, TOKEN_RESEARCH_LISTING_ID);
    } finally {
      await limited.destroy();
    }
  });
});

describe('a quote is bound and answers its asset (spec 2.2, 2.7)', () => {
  it('each profile quotes in its own asset id', async () => {
    for (const profile of ['solana_sol', 'solana_usdc', 'local_custody', 'sim'] as const) {
      const quote = await quoteOk(shared.s, shared.buyers[profile], TOKEN_RESEARCH_LISTING_ID);
      const { namespace, cluster, kind } = quote.asset;
      expect(`${namespace}:${cluster}/${kind}`).toBe(ASSET_ID[profile]);
    }
  });
});
