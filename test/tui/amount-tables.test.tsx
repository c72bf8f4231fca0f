import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Billing, Receipt } from '../../src/client/index.ts';
import { Lines } from '../../src/tui/components/lines.tsx';
import { billingLines, receiptLines } from '../../src/tui/screens/detail-lines.ts';
import { acceptDemoQuote } from '../helpers/frames.ts';
import { KEYS, startConsole, type ConsoleHarness } from './console-harness.tsx';
import { exactValueProblems, fitProblems, plain } from './fit-checks.ts';
import { amountRow, settlementRows, tableRow } from './table-rows.ts';

/**
 * The billing's settlement and the receipt's fee split are static tables
 * drawn by ink-table (no row is selected): one row per amount, its units and
 * its exact atomic string. A table is lines of the pane it is in (the pane
 * scrolls through it line by line), and where it would be wider than the
 * pane its amounts are written as wrapped lines instead, never cut.
 */

const settled = (settlement: Record<string, string>): Billing =>
  ({ runId: '3f4ffd26-7d1c-4c55-9d4e-6f1b2a0c9e11', status: 'settled', settlement: { outcome: 'succeeded', ...settlement } }) as unknown as Billing;
const SPLIT = { chargedAtomic: '7353500000000000', creatorFeeAtomic: '4500000000000000', platformFeeAtomic: '500000000000000', executionChargeAtomic: '2353500000000000' };

/** The pane as the run screen draws it, `rows` high from line `scroll`. */
const pane = (lines: ReturnType<typeof billingLines>, rows: number, scroll = 0) => {
  const view = render(<Lines lines={lines} rows={rows} scroll={scroll} />);
  const frame = plain(view.lastFrame() ?? '');
  view.unmount();
  return frame;
};

let h: ConsoleHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('amount tables (ink-table)', () => {
  it('draws the billing settlement as a table: each part with its units and atomic string, the digits aligned right', () => {
    const lines = billingLines(settled(SPLIT), 'local_custody', 78);
    const frame = pane(lines, 40);
    expect(frame).toMatch(tableRow('part', 'amount', 'atomic'));
    for (const row of settlementRows(SPLIT)) expect(frame).toMatch(row);
    // Right-aligned: every atomic string ends in the same column.
    const ends = frame.split('\n').filter((l) => /\d │$/.test(l)).map((l) => l.length);
    expect(ends).toHaveLength(4);
    expect(new Set(ends).size).toBe(1);
    // ink-table's lines are the pane's: border, heading, a rule above each of the 4 rows, border.
    expect(lines.filter((l) => l.table)).toHaveLength(11);
    expect(frame.split('\n')).toHaveLength(lines.length);
    expect([...fitProblems(frame, 80).filter((p) => !p.startsWith('tab bar')), ...exactValueProblems(frame, 80)]).toEqual([]);
  });

  it('scrolls through a table line by line: a window that starts inside it shows its lines from there, and fills its rows', () => {
    const lines = billingLines(settled(SPLIT), 'local_custody', 78);
    const start = lines.findIndex((l) => l.table);
    // From the table's third line (the rule under the heading): the heading and the border above it are scrolled off.
    const frame = pane(lines, 6, start + 2);
    const shown = frame.split('\n');
    expect(shown[0]).toMatch(/^├─+┼─+┼─+┤$/);
    expect(shown[1]).toMatch(amountRow('charged', SPLIT.chargedAtomic));
    expect(shown[3]).toMatch(amountRow('creator fee', SPLIT.creatorFeeAtomic));
    expect(shown[5]).toMatch(amountRow('platform fee', SPLIT.platformFeeAtomic));
    expect(frame).not.toContain('│ part');
    expect(shown[6]).toBe(`lines ${start + 3}–${start + 8} of ${lines.length} · ↑↓ scroll`);
    expect(shown).toHaveLength(7);
  });

  it('writes the amounts as wrapped lines when the table would be wider than the pane: an 80-column terminal never sees one cut', () => {
    // 28 digits: the table would be 88 columns wide.
    const huge = '1234567890123456789012345678';
    const lines = billingLines(settled({ ...SPLIT, chargedAtomic: huge }), 'local_custody', 78);
    expect(lines.some((l) => l.table)).toBe(false);
    const frame = pane(lines, 40);
    expect(frame).toMatch(/^Charged {11}1,234,567,890\.123456789012345678 ETH\n {18}\(1234567890123456789012345678 atomic\)$/m);
    expect(frame).toMatch(/^ {2}creator fee {5}0\.0045 ETH \(4500000000000000 atomic\)$/m);
    expect(exactValueProblems(frame, 80)).toEqual([]);
    // The same billing at 100 columns has room for the table.
    expect(pane(billingLines(settled({ ...SPLIT, chargedAtomic: huge }), 'local_custody', 98), 40)).toMatch(amountRow('charged', huge));
  });

  it("shows only the atomic strings where the asset is unknown (a remote service's other profile)", () => {
    const frame = pane(billingLines(settled(SPLIT), 'some_other_profile', 78), 40);
    expect(frame).toMatch(tableRow('part', 'atomic'));
    expect(frame).toMatch(tableRow('charged', SPLIT.chargedAtomic));
  });

  it("draws the receipt's fee split as a table under its feeBps, and leaves a fee split without amount strings as lines", () => {
    const receipt = {
      runId: '3f4ffd26-7d1c-4c55-9d4e-6f1b2a0c9e11',
      feeSplit: { feeBps: 1000, creatorFeeAtomic: SPLIT.creatorFeeAtomic, platformFeeAtomic: SPLIT.platformFeeAtomic, executionChargeAtomic: SPLIT.executionChargeAtomic },
      payment: { assetId: 'eip155:4663/native', currencyLabel: 'ETH on the chainx chain' },
    } as unknown as Receipt;
    const frame = pane(receiptLines(receipt, 'local_custody', 78), 40);
    expect(frame).toMatch(/feeSplit\n {2}feeBps: 1000\n┌/);
    expect(frame).toMatch(amountRow('creatorFee', SPLIT.creatorFeeAtomic));
    expect(frame).toMatch(amountRow('platformFee', SPLIT.platformFeeAtomic));
    expect(frame).toMatch(amountRow('executionCharge', SPLIT.executionChargeAtomic));
    const odd = { ...receipt, feeSplit: { feeBps: 1000, creatorFeeAtomic: 4500 } } as unknown as Receipt;
    const oddLines = receiptLines(odd, 'local_custody', 78);
    expect(oddLines.some((l) => l.table)).toBe(false);
    expect(oddLines.map((l) => l.text)).toContain('  creatorFeeAtomic: 4500');
  });

  it('at 80×24, against a simulator: the settled billing and the receipt fee split as tables, whole, in a frame that fits', { timeout: 60_000 }, async () => {
    h = await startConsole({ size: { columns: 80, rows: 24 } });
    await h.waitForFrame('Balances');
    h.press('2');
    await h.waitForFrame('64 agents');
    await acceptDemoQuote(h);
    const runId = h.store.getState().run.runId!;
    h.press('+', '+');
    await h.waitForFrame('succeeded · terminal');
    const billing = await h.client.v1.billing('custody', runId);

    h.press('b');
    const billingFrame = await h.waitForFrame('Status            settled');
    for (const row of settlementRows(billing.settlement!)) expect(billingFrame).toMatch(row);
    expect([...fitProblems(billingFrame, 80), ...exactValueProblems(billingFrame, 80)]).toEqual([]);
    expect(plain(billingFrame).split('\n')).toHaveLength(24);

    const receipt = (await h.client.v1.receipt(runId)) as unknown as { feeSplit: Record<string, string> };
    const rows = [amountRow('creatorFee', receipt.feeSplit.creatorFeeAtomic), amountRow('platformFee', receipt.feeSplit.platformFeeAtomic), amountRow('executionCharge', receipt.feeSplit.executionChargeAtomic)];
    h.press('i');
    await h.waitForFrame('Paid in');
    // Line by line down to the whole fee split, its bottom border in view.
    for (let line = 0; line < 80 && !(rows.every((row) => row.test(h!.lastFrame())) && /feeBps[^]*└─/.test(h.lastFrame())); line += 1) {
      const before = h.lastFrame();
      h.press(KEYS.down);
      await h.waitForFrame((f) => f !== before);
    }
    const feeFrame = h.lastFrame();
    for (const row of rows) expect(feeFrame).toMatch(row);
    expect(feeFrame).toContain('feeBps: 1000');
    expect([...fitProblems(feeFrame, 80), ...exactValueProblems(feeFrame, 80)]).toEqual([]);
    expect(plain(feeFrame).split('\n')).toHaveLength(24);
  });
});
