import { describe, expect, it } from 'vitest';
import { checkCase } from '../../src/case/check.ts';
import { recogniseDocument } from '../../src/case/documents.ts';
import { playAndCollect } from './support.ts';

/**
 * Point 1, the listing version: the immutable version in a customer's export
 * joins the catalog when the fixtures lack it (PUT /sim/listings/{id}/versions/{versionId}),
 * so the reproduction quotes at that version's price revision and tariff; a
 * version id the catalog holds with other content is refused as immutable.
 */
type Json = Record<string, any>;

describe('the listing version of a case', () => {
  it('a version the fixtures lack joins the catalog and the reproduction is priced by it', async () => {
    const [paid] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
    const exported = JSON.parse(JSON.stringify(paid.export)) as Json;
    const versionId = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
    exported.version.id = versionId;
    exported.version.priceRevision = 3;
    exported.version.tariffs.find((t: Json) => t.profile === 'local_custody').creatorFeeAtomic = '6000000000000000';
    exported.run.versionId = versionId;
    const check = await checkCase([recogniseDocument(exported, 'export-revision-3.json')]);
    expect(check.problems).toEqual([]);
    expect(check.reproduction.receipt?.quote).toMatchObject({ versionId, priceRevision: 3, grossCreatorFeeAtomic: '6000000000000000', platformFeeAtomic: '600000000000000' });
    expect(check.reproduction.billing?.settlement).toMatchObject({ outcome: 'succeeded', creatorFeeAtomic: '5400000000000000', platformFeeAtomic: '600000000000000' });
  });

  it('a version id the catalog holds with other content is refused as immutable, and the check says so', async () => {
    const [paid] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
    const exported = JSON.parse(JSON.stringify(paid.export)) as Json;
    exported.version.priceRevision = 7;
    const check = await checkCase([recogniseDocument(exported, 'export-tampered.json'), recogniseDocument(paid.receipt, 'receipt.json')]);
    expect(check.agree).toBe(false);
    expect(check.problems.join('\n')).toContain('a published version is immutable');
  });
});
