import { describe, expect, it } from 'vitest';
import { documentsOf } from '../../src/case/bundle.ts';
import { checkCase } from '../../src/case/check.ts';
import { recogniseDocument } from '../../src/case/documents.ts';
import { playAndCollect } from './support.ts';

/**
 * Done when, points 2 and 3: a customer's export edited by hand to another
 * outcome is reproduced with that outcome; a customer's billing that charges
 * more than the charge table allows is a disagreement naming the rule.
 */
type Json = Record<string, any>;
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

describe('case check verdicts', () => {
  it('an export edited to partial with 3 reads unconfirmed is reproduced as partial with 3 unconfirmed reads, nothing charged', async () => {
    const [complete] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
    const edited = clone(complete.export!) as Json;
    edited.run.status = 'partial';
    edited.run.output.coverageGaps = ['controls'];
    for (const event of edited.events) {
      if (event.step === 'chain-reads') event.message = event.message.replace(/\(0 without a confirmed receipt\)/, '(3 without a confirmed receipt)');
      if (event.step === 'succeeded') {
        event.step = 'partial';
        event.message = 'Finished with a partial report.';
      }
    }
    const check = await checkCase([recogniseDocument(edited, 'customer-export.json')]);
    expect(check.problems).toEqual([]);
    expect(check.scenario.steps.some((s) => 'control' in s && (s.control.body as Json)?.outcome === 'partial' && (s.control.body as Json).unconfirmedRpcCalls === 3)).toBe(true);
    expect(check.reproduction.run?.status).toBe('partial');
    expect(check.reproduction.run?.rpcUsed).toBe(87);
    expect(check.reproduction.billing).toMatchObject({ status: 'settled', authorizedRpcCalls: 87, unresolvedRpcCalls: 3, settlement: { outcome: 'partial', chargedAtomic: '0' } });
    // The original (complete) run was charged; the edited case is not.
    expect((complete.billing as Json).settlement.chargedAtomic).not.toBe('0');
  });

  it("a billing that charges a partial run the creator fee and execution disagrees, naming spec 3.3's row", async () => {
    const [partial] = (await playAndCollect('fixtures/scenarios/02-partial-report-nothing-charged.json')).cases;
    const docs = documentsOf(partial, 'customer');
    const billing = clone(partial.billing) as Json;
    expect(billing.settlement.chargedAtomic).toBe('0');
    Object.assign(billing.settlement, { chargedAtomic: '7353500000000000', creatorFeeAtomic: '4500000000000000', platformFeeAtomic: '500000000000000', executionChargeAtomic: '2353500000000000' });
    const customer = [...docs.filter((d) => d.kind !== 'billing'), recogniseDocument(billing, 'customer-billing.json')];
    const check = await checkCase(customer);
    expect(check.agree).toBe(false);
    expect(check.breaches.map((b) => [b.field, b.cite])).toEqual([
      ['settlement.creatorFeeAtomic', "spec 3.3, row 'Partial or failed report'"],
      ['settlement.executionChargeAtomic', "spec 3.3, row 'Partial or failed report'"],
    ]);
    const row = check.rows.find((r) => r.field === 'settlement.creatorFeeAtomic')!;
    expect(row).toMatchObject({ equal: false, customer: '4500000000000000', reproduction: '0' });
    expect(row.reason).toContain("spec 3.3, row 'Partial or failed report'");
    expect(row.reason).toContain('nothing; whole reservation returns');
    expect(check.rows.find((r) => r.field === 'settlement.chargedAtomic')).toMatchObject({ equal: false, customer: '7353500000000000', reproduction: '0' });
    // The receipt the customer sent still agrees: only the billing was wrong.
    expect(check.rows.filter((r) => r.field.startsWith('receipt.')).every((r) => r.equal)).toBe(true);
  });

  it('a charge above the quote maximum names the maximum rule', async () => {
    const [complete] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
    const billing = clone(complete.billing) as Json;
    Object.assign(billing.settlement, { chargedAtomic: '9000000000000000', executionChargeAtomic: '4000000000000000' });
    const docs = [...documentsOf(complete, 'customer').filter((d) => d.kind !== 'billing'), recogniseDocument(billing, 'customer-billing.json')];
    const check = await checkCase(docs);
    expect(check.agree).toBe(false);
    expect(check.breaches.map((b) => b.cite)).toEqual(expect.arrayContaining(['spec 3.3', 'spec 2.7']));
    expect(check.breaches.find((b) => b.cite === 'spec 3.3')!.detail).toContain('exceeds the quote maximum 8160000000000000');
  });
});
