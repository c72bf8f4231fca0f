import { afterEach, describe, expect, it } from 'vitest';
import { formatProfileAmount } from '../../src/tui/amount.ts';
import { messageWithUnits } from '../../src/tui/message-amounts.ts';
import { receiptLines } from '../../src/tui/screens/detail-lines.ts';
import { KEYS, quoteDemoAgent, startConsole, type ConsoleHarness } from './console-harness.tsx';
import { settlementRows } from './table-rows.ts';

/**
 * Money one way: every amount in units with the asset's symbol, and the
 * exact atomic string beside it wherever a support person compares with
 * curl (quote, billing, receipt, ledger lines). Against a real simulator.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

const exact = (atomic: string) => formatProfileAmount(atomic, 'local_custody', { exact: true });

/** Every `…Atomic` field of a JSON value, with its path. */
function atomicFields(value: unknown, path = ''): Array<{ path: string; name: string; atomic: string }> {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, item]) =>
    name.endsWith('Atomic') && typeof item === 'string' ? [{ path: `${path}.${name}`, name, atomic: item }] : atomicFields(item, `${path}.${name}`),
  );
}

describe('money shown one way', () => {
  it('writes an amount in units with the exact atomic string beside it, and an unknown asset as its atomic string', () => {
    expect(formatProfileAmount('8160000000000000', 'local_custody', { exact: true })).toBe('0.00816 ETH (8160000000000000 atomic)');
    expect(formatProfileAmount('4600000', 'solana_usdc', { exact: true })).toBe('4.6 USDC (4600000 atomic)');
    expect(formatProfileAmount('8160000000000000', 'local_custody')).toBe('0.00816 ETH');
    expect(formatProfileAmount('5', 'unknown_profile', { exact: true })).toBe('5 atomic');
  });

  it('gives units to the amounts a run event message names, and leaves its counts alone', () => {
    expect(messageWithUnits('Accepted; 8160000000000000 reserved; waiting for a worker.', 'local_custody')).toBe('Accepted; 0.00816 ETH reserved; waiting for a worker.');
    expect(messageWithUnits('AI analysis used 1875000000000000 of the model cost cap.', 'local_custody')).toBe('AI analysis used 0.001875 ETH of the model cost cap.');
    expect(messageWithUnits('Settled: charged 7353500.', 'solana_usdc')).toBe('Settled: charged 7.3535 USDC.');
    for (const counts of ['43 of 87 blockchain reads done (0 without a confirmed receipt).', 'Worker started attempt 1; evidence pinned at ethereum block 21000000.', 'Billing pending: 3 reads await a confirmed receipt.']) {
      expect(messageWithUnits(counts, 'local_custody')).toBe(counts);
    }
    // Without a known asset the message stays as the service wrote it.
    expect(messageWithUnits('Accepted; 8160000000000000 reserved.', null)).toBe('Accepted; 8160000000000000 reserved.');
  });

  it('shows the quote, the timeline, the billing, the receipt and the ledger lines in units, with the exact atomic strings where support compares', async () => {
    h = await startConsole();
    const quoteFrame = await quoteDemoAgent(h);
    const quote = h.store.getState().quote.quote!;
    expect(quoteFrame).toContain(`Maximum debit     ${exact(quote.maximumBuyerDebitAtomic)}`);
    expect(quoteFrame).toContain(`creator credit  ${exact(quote.creatorCreditAtomic!)}`);
    expect(quoteFrame).toContain(`Max execution     ${exact(quote.maxExecutionChargeAtomic!)}`);

    h.press('a');
    await h.waitForFrame('acceptedContractHash');
    h.press('y');
    const queued = await h.waitForFrame(/Accepted; .* reserved/);
    expect(queued).toContain(`Accepted; ${formatProfileAmount(quote.maximumBuyerDebitAtomic, 'local_custody')} reserved`);
    expect(queued).not.toContain(`${quote.maximumBuyerDebitAtomic} reserved`);
    const runId = h.store.getState().run.runId!;
    h.press('+', '+');
    const done = await h.waitForFrame('succeeded · terminal');
    const billing = await h.client.v1.billing('custody', runId);
    const settlement = billing.settlement!;
    expect(done).toContain(`Settled: charged ${formatProfileAmount(settlement.chargedAtomic, 'local_custody')}.`);

    h.press('b');
    const billingFrame = await h.waitForFrame('Status            settled');
    // The settlement as an amount table: units and the atomic string side by side.
    for (const row of settlementRows(settlement)) expect(billingFrame).toMatch(row);

    // The receipt: a converted value is never labelled with an atomic field name, and every amount keeps its atomic string.
    const receipt = await h.client.v1.receipt(runId);
    const receiptPane = receiptLines(receipt, 'local_custody', 78);
    const lines = receiptPane.map((l) => l.text);
    const fields = atomicFields(receipt);
    expect(fields.length).toBeGreaterThan(3);
    // The fee split's amounts are a table's rows (part, units, atomic string), every other amount a line.
    const feeSplit = receiptPane.find((l) => l.table)?.table?.of;
    expect(feeSplit?.columns.map((c) => c.key)).toEqual(['part', 'amount', 'atomic']);
    for (const field of fields) {
      const name = field.name.slice(0, -'Atomic'.length);
      if (field.path.startsWith('.feeSplit.')) {
        const row = { part: name, amount: formatProfileAmount(field.atomic, 'local_custody'), atomic: field.atomic };
        expect(feeSplit?.rows, `${field.path} as a row of the fee split`).toContainEqual(row);
        continue;
      }
      const converted = `${name}: ${exact(field.atomic)}`;
      expect(lines.some((l) => l.trim() === converted), `${field.path} as "${converted}"`).toBe(true);
    }
    expect(fields.filter((f) => f.path.startsWith('.feeSplit.')).length).toBe(3);
    expect(lines.filter((l) => /Atomic:/.test(l))).toEqual([]);
    h.press('i');
    await h.waitForFrame('Paid in');
    const maximum = `maximumBuyerDebit: ${exact(quote.maximumBuyerDebitAtomic)}`;
    for (let page = 0; page < 10 && !h.lastFrame().includes(maximum); page += 1) {
      const before = h.lastFrame();
      h.press(KEYS.pageDown);
      await h.waitForFrame((f) => f !== before);
    }
    expect(h.lastFrame()).toContain(maximum);
    expect(h.lastFrame()).not.toMatch(/Atomic: \d[\d,]*\.\d+ ETH/);

    h.press('4');
    const ledger = await h.waitForFrame(/ release /);
    expect(ledger).toMatch(new RegExp(`reserve\\s+${exact(quote.maximumBuyerDebitAtomic).replace(/[.()]/g, '\\$&')}`));
    expect(ledger).toMatch(new RegExp(`charge\\s+${exact(settlement.chargedAtomic).replace(/[.()]/g, '\\$&')}`));
  });
});
