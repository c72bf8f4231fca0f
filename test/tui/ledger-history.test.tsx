import { afterEach, describe, expect, it } from 'vitest';
import type { SimLedgerEntry } from '../../src/client/index.ts';
import { formatAtomic } from '../../src/tui/amount.ts';
import { historyLines } from '../../src/tui/ledger-history.ts';
import { startConsole, type ConsoleHarness } from './console-harness.tsx';

/**
 * The ledger history adds up line by line: each line shows the balances
 * right after it, and its bar is on a scale where a demo-sized reservation,
 * its charge and its release are all visible. Against a real simulator.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

type Parts = SimLedgerEntry['after'];
const PART_NAMES = ['availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic'] as const;

/** What each kind of line moves, as signed deltas of its amount (reconcile is checked apart: its line names only the charge). */
const MOVES: Record<string, Partial<Record<keyof Parts, 1n | -1n>>> = {
  deposit: { availableAtomic: 1n },
  reserve: { availableAtomic: -1n, reservedAtomic: 1n },
  charge: { reservedAtomic: -1n, chargedAtomic: 1n },
  hold: { reservedAtomic: -1n, pendingAtomic: 1n },
  release: { reservedAtomic: -1n, availableAtomic: 1n },
};

const eth = (atomic: string) => formatAtomic(atomic, 18);

/** Quote, accept and run to its end through the API: the demo agent on `address` (one ending in c0de leaves 3 reads unconfirmed, docs/magic-inputs.md). */
async function runToEnd(address: string): Promise<string> {
  const listing = (await h.client.v1.listAgents({ q: 'Token Research Agent', limit: 10 })).agents.find((a) => a.name === 'Token Research Agent')!;
  const quote = await h.client.v1.createQuote('custody', { listingId: listing.listingId, input: { chain: 'ethereum', address } });
  const accepted = await h.client.v1.acceptQuote('custody', quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey: `ledger-${address.slice(-4)}` });
  await h.client.sim.advance({ seconds: 300 });
  return accepted.run.id;
}

describe('ledger history', () => {
  it('gives each line the balances right after it: a settlement charge, its hold and its release, then the reconciliation', async () => {
    h = await startConsole();
    await h.waitForFrame('Balances');
    const accountId = h.store.getState().accountId!;
    await runToEnd('0x6B175474E89094C44Da98b954EedeAC495271d0F');
    const pendingRun = await runToEnd('0x6B175474E89094C44Da98b954EedeAC49527c0de');
    await h.client.sim.reconcileRun(pendingRun, { confirmed: true });
    const entries = (await h.client.sim.ledger(accountId)).filter((e) => e.profile === 'local_custody');
    expect(entries.map((e) => e.kind)).toEqual(['deposit', 'reserve', 'charge', 'release', 'reserve', 'charge', 'hold', 'release', 'reconcile']);

    const lines = historyLines(entries);
    // The first line starts from nothing; each later line is the one before it moved by this line's amount alone.
    let before: Parts = { availableAtomic: '0', reservedAtomic: '0', pendingAtomic: '0', chargedAtomic: '0' };
    for (const { entry, after } of lines) {
      const amount = BigInt(entry.amountAtomic);
      if (entry.kind === 'reconcile') {
        const held = BigInt(before.pendingAtomic);
        expect(after).toEqual({ ...before, pendingAtomic: '0', chargedAtomic: String(BigInt(before.chargedAtomic) + amount), availableAtomic: String(BigInt(before.availableAtomic) + held - amount) });
      } else {
        const expected = Object.fromEntries(PART_NAMES.map((part) => [part, String(BigInt(before[part]) + (MOVES[entry.kind][part] ?? 0n) * amount)]));
        expect(after, `${entry.kind} ${entry.amountAtomic}`).toEqual(expected);
      }
      before = after;
    }
    // The last line of each movement is the balance the service answered.
    for (const index of [1, 3, 7, 8]) expect(lines[index].after).toEqual(entries[index].after);
  });

  it('shows each line with the balances after it, its bar on the scale of the largest run amount, the scale named', async () => {
    h = await startConsole({ size: { columns: 100, rows: 40 } });
    await h.waitForFrame('Balances');
    await runToEnd('0x6B175474E89094C44Da98b954EedeAC495271d0F');
    const entries = await h.client.sim.ledger(h.store.getState().accountId!);
    const [reserve, charge, release] = ['reserve', 'charge', 'release'].map((kind) => entries.find((e) => e.kind === kind)!);
    h.press('4');
    const frame = await h.waitForFrame(/ release /);
    expect(frame).toContain(`scale ${eth(reserve.amountAtomic)} ETH`);

    // Two lines per posting at 100 columns: what moved, then its bar and the balances right after it.
    const rows = frame.split('\n');
    const after = (kind: string) => rows[rows.findIndex((r) => new RegExp(`local_custody ${kind} `).test(r)) + 1];
    const chargedAfterReserve = BigInt(reserve.amountAtomic) - BigInt(charge.amountAtomic);
    expect(after('charge')).toContain(`resv ${eth(String(chargedAfterReserve))} ·`);
    expect(after('charge')).toContain(`chg ${eth(charge.amountAtomic)} ETH`);
    expect(after('release')).toContain('resv 0 ·');
    expect(after('release')).toContain(`avail ${eth(release.after.availableAtomic)} ·`);
    expect(after('reserve')).toContain(`resv ${eth(reserve.amountAtomic)} ·`);

    // The reservation fills its bar; the charge and the release split it (each at least one cell).
    const cells = (row: string) => (/(█*)(»?)(░*)/.exec(row.trim()) ?? ['', ''])[1].length;
    expect(cells(after('reserve'))).toBe(10);
    expect(cells(after('charge'))).toBe(9);
    expect(cells(after('release'))).toBe(1);
    // A deposit far beyond the scale fills its bar and says it is off the scale.
    expect(frame).toMatch(/█{9}» avail 2 · resv 0 · pend 0 · chg 0 ETH/);
  });
});
