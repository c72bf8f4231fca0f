import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SOLANA_INSPECTION_LISTING_ID, TOKEN_RESEARCH_LISTING_ID, WORKFLOW_LISTING_ID } from '../../fixtures/listings/index.ts';
import {
  accept, acceptOk, ASSET_ID, canonical, contractTermsOf, expectLedger, idempotencyKey, quoteOk, recomputeHash, tokenInput,
  type Buyer, type Profile, sharedBuyers } from './support.ts';

/** The contract hash (spec 2.1, 4.4; docs/contract-hash.md) recomputed from the quote response and the key's assetId alone. */

const shared = sharedBuyers();

async function keyAssetId(buyer: Buyer): Promise<string> {
  const r = await shared.s.json({ url: '/v1/buyer/key', key: buyer.secret });
  expect(r.status).toBe(200);
  return r.body.key.assetId;
}

describe('the test canonicaliser', () => {
  it('sorts keys at every depth, keeps array order, writes no whitespace', () => {
    expect(canonical({ b: 1, a: [{ d: 'x y', c: null }, 2], 'é': 'ü', A: true })).toBe('{"A":true,"a":[{"c":null,"d":"x y"},2],"b":1,"é":"ü"}');
    expect(canonical({ z: { y: { x: '1' } } })).toBe('{"z":{"y":{"x":"1"}}}');
    expect(canonical('line\nbreak "q"')).toBe('"line\\nbreak \\"q\\""');
  });
});

describe('contractHash = sha256(canonical JSON of the terms)', () => {
  for (const profile of ['solana_sol', 'solana_usdc', 'local_custody', 'sim'] as const) {
    it(`recomputes from a ${profile} quote and the key's assetId`, async () => {
      const buyer = shared.buyers[profile];
      const assetId = await keyAssetId(buyer);
      expect(assetId).toBe(ASSET_ID[profile]);
      const quote = await quoteOk(shared.s, buyer, profile === 'solana_sol' || profile === 'solana_usdc' ? SOLANA_INSPECTION_LISTING_ID : TOKEN_RESEARCH_LISTING_ID,
        profile === 'solana_sol' || profile === 'solana_usdc'
          ? { analysisChain: 'solana', network: 'mainnet-beta', encoding: 'base64', payloadBase64: 'AQIDBA==' }
          : tokenInput('base'));
      expect(recomputeHash(quote, assetId)).toBe(quote.contractHash);
    });
  }

  it('binds the result policy and the defaulted input (scope, snapshotBlock)', async () => {
    const buyer = shared.buyers.local_custody;
    const assetId = await keyAssetId(buyer);
    const quote = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID, { snapshotBlock: '19000000', address: '0x' + 'Ab'.repeat(20), chain: 'chainx' }, { resultPolicy: 'canonical_metadata' });
    expect(quote.input).toEqual({ chain: 'chainx', address: '0x' + 'Ab'.repeat(20), snapshotBlock: '19000000', scope: 'metadata-and-controls' });
    expect(recomputeHash(quote, assetId)).toBe(quote.contractHash);
    const terms = contractTermsOf(quote, assetId);
    expect(canonical(terms)).not.toMatch(/\s/);
    expect(canonical(terms).startsWith('{"amounts":{"creatorCreditAtomic":')).toBe(true);
  });

  it('handles nested workflow values given in any key order and non-ASCII text', async () => {
    const buyer = shared.buyers.local_custody;
    const assetId = await keyAssetId(buyer);
    const quote = await quoteOk(shared.s, buyer, WORKFLOW_LISTING_ID, {
      values: { question: 'Qué controla el "admin"?\nÜber-Proxy 🚀 \u2028 done', protocol: 'Ünïcode Finance', depth: 'deep' },
      chain: 'base',
      workflow: 'service.workflow.v1',
    });
    expect(recomputeHash(quote, assetId)).toBe(quote.contractHash);
    // Built by hand in sorted order, the same bytes.
    const manual = JSON.stringify({
      amounts: {
        creatorCreditAtomic: quote.creatorCreditAtomic,
        feeBps: quote.feeBps,
        grossCreatorFeeAtomic: quote.grossCreatorFeeAtomic,
        maxExecutionChargeAtomic: quote.maxExecutionChargeAtomic,
        maximumBuyerDebitAtomic: quote.maximumBuyerDebitAtomic,
        platformFeeAtomic: quote.platformFeeAtomic,
      },
      asset: { assetId, cluster: quote.asset.cluster, decimals: quote.asset.decimals, kind: quote.asset.kind, namespace: quote.asset.namespace },
      expiresAt: quote.expiresAt,
      input: { chain: quote.input.chain, values: { depth: 'deep', protocol: 'Ünïcode Finance', question: quote.input.values.question }, workflow: 'service.workflow.v1' },
      listingId: quote.listingId,
      priceRevision: quote.priceRevision,
      quoteId: quote.id,
      resultPolicy: quote.resultPolicy,
      versionId: quote.versionId,
    });
    expect(createHash('sha256').update(manual).digest('hex')).toBe(quote.contractHash);
  });

  it('differs between two quotes of the same input (quoteId and expiresAt are terms)', async () => {
    const buyer = shared.buyers.sim;
    const a = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const b = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    expect(a.contractHash).not.toBe(b.contractHash);
    const assetId = await keyAssetId(buyer);
    expect(recomputeHash(a, assetId)).toBe(a.contractHash);
    expect(recomputeHash(b, assetId)).toBe(b.contractHash);
  });

  it('a hash recomputed over any altered term is refused at acceptance; the recomputed true hash is accepted', async () => {
    const buyer = shared.buyers.local_custody;
    const assetId = await keyAssetId(buyer);
    const quote = await quoteOk(shared.s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const alterations: Array<(q: any) => void> = [
      (q) => (q.maximumBuyerDebitAtomic = (BigInt(q.maximumBuyerDebitAtomic) - 1n).toString()),
      (q) => (q.platformFeeAtomic = '0'),
      (q) => (q.feeBps = 0),
      (q) => (q.expiresAt = new Date(Date.parse(q.expiresAt) + 1000).toISOString()),
      (q) => (q.input = { ...q.input, chain: 'base' }),
      (q) => (q.resultPolicy = 'canonical_metadata'),
      (q) => (q.priceRevision = q.priceRevision + 1),
      (q) => (q.asset = { ...q.asset, decimals: 9 }),
    ];
    for (const alter of alterations) {
      const altered = structuredClone(quote);
      alter(altered);
      const hash = recomputeHash(altered, assetId);
      expect(hash).not.toBe(quote.contractHash);
      expectLedger(await accept(shared.s, buyer, quote.id, { acceptedContractHash: hash, idempotencyKey: idempotencyKey('alt') }), 'quote_contract_mismatch');
    }
    // Another key's asset id is a term too.
    expect(recomputeHash(quote, 'sim:local/credit')).not.toBe(quote.contractHash);
    const accepted = await acceptOk(shared.s, buyer, { id: quote.id, contractHash: recomputeHash(quote, assetId) });
    expect(accepted.reservation.quoteId).toBe(quote.id);
  });
});
