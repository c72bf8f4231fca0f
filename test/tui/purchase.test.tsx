import { afterEach, describe, expect, it } from 'vitest';
import { formatProfileAmount } from '../../src/tui/amount.ts';
import { KEYS, quoteDemoAgent as toDemoQuote, startConsole, type ConsoleHarness } from './console-harness.tsx';
import { amountRow } from './table-rows.ts';

/**
 * A purchase by keystrokes against a real simulator on a frozen clock:
 * browse → quote → accept → advance the clock → settled billing → receipt →
 * export, a cancellation, and refusals explained.
 */

let h: ConsoleHarness;
afterEach(() => h?.close());

/** A console of its own, on the demo agent's first quote (console-harness.tsx). */
async function quoteDemoAgent(): Promise<string> {
  h = await startConsole();
  return toDemoQuote(h);
}

async function acceptQuote(): Promise<string> {
  h.press('a');
  await h.waitForFrame('acceptedContractHash');
  h.press('y');
  return h.waitForFrame(/Run [0-9a-f]{8}… Token Research Agent/);
}

/** A run whose billing is pending: the demo agent on an address ending in c0de (its last 3 reads have no confirmed receipt, docs/magic-inputs.md), accepted and run to its end, billing view open. */
async function pendingBilling() {
  await quoteDemoAgent();
  h.press('e');
  await h.waitForFrame('Quote builder · Token Research Agent');
  h.press(KEYS.down, KEYS.enter);
  await h.waitForFrame('Token contract: 0x6B175474E89094C44Da98b954EedeAC495271d0F█');
  h.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace, 'c0de', KEYS.enter);
  await h.waitForFrame(/Token contract\*\s+0x6B175474E89094C44Da98b954EedeAC49527c0de/);
  h.press('q');
  await h.waitForFrame('expires in 4:00');
  await acceptQuote();
  const runId = h.store.getState().run.runId!;
  h.press('+', '+');
  await h.waitForFrame('succeeded · terminal');
  h.press('b');
  const pending = await h.waitForFrame('Status            pending');
  expect(pending).toContain('Pending reason');
  expect(pending).toContain('c reads confirmed');
  expect(pending).toContain('u reads not confirmed');
  const billing = await h.client.v1.billing('custody', runId);
  expect(billing.unresolvedRpcCalls).toBe(3);
  const balance = async () => {
    const view = await h.client.sim.account(h.store.getState().accountId!);
    const b = view.balances.find((x) => x.profile === 'local_custody')!;
    return { available: BigInt(b.availableAtomic), pending: BigInt(b.pendingAtomic), charged: BigInt(b.chargedAtomic) };
  };
  const held = await balance();
  expect(held.pending).toBe(BigInt(String(billing.heldAtomic)));
  expect(held.pending).toBeGreaterThan(0n);
  return { runId, held, balance };
}

describe('purchase flow', () => {
  it('quotes in two keys from the catalog, accepts, settles, and shows billing, receipt and export', async () => {
    const quoteFrame = await quoteDemoAgent();
    const quote = h.store.getState().quote.quote!;
    expect(quoteFrame).toContain('Quote · Token Research Agent · token_research · POST /v1/custody/quotes');
    expect(quoteFrame).toContain(`Maximum debit     ${formatProfileAmount(quote.maximumBuyerDebitAtomic, 'local_custody')}`);
    expect(quoteFrame).toContain(`Creator fee       ${formatProfileAmount(quote.grossCreatorFeeAtomic!, 'local_custody', { exact: true })} · gross`);
    expect(quoteFrame).toContain(`platform fee    ${formatProfileAmount(quote.platformFeeAtomic!, 'local_custody', { exact: true })} · feeBps 1000 = 10%`);
    expect(quoteFrame).toContain(`creator credit  ${formatProfileAmount(quote.creatorCreditAtomic!, 'local_custody')}`);
    expect(quoteFrame).toContain(`Max execution     ${formatProfileAmount(quote.maxExecutionChargeAtomic!, 'local_custody')}`);
    expect(quoteFrame).toContain('Unit costs        rpcCall');
    expect(quoteFrame).toContain('Model execution   costCap');
    expect(quoteFrame).toContain('Result policy     complete_only');
    expect(quoteFrame).toContain('Result contract   Charged only when');
    // The rest of the quote is a scroll away.
    h.press(KEYS.pageDown);
    const rest = await h.waitForFrame('Contract hash');
    expect(rest).toContain(quote.contractHash);
    expect(rest).toContain('Notice            Local-custody rail');

    // The countdown runs on the simulated clock.
    h.press(':');
    await h.waitForFrame('expires in 3:50');

    h.press('a');
    const confirm = await h.waitForFrame('acceptedContractHash');
    expect(confirm).toContain(quote.contractHash);
    expect(confirm).toContain('idempotencyKey       console-test-1');
    h.press('y');
    const queued = await h.waitForFrame(/Run [0-9a-f]{8}… Token Research Agent\s+queued/);
    expect(queued).toMatch(/Reads ░+ 0 \/ 120 \(agent's maximumRpcCalls\)/);
    expect(queued).toContain('✔ accepted: 0.00816 ETH reserved');
    const runId = h.store.getState().run.runId!;

    // One minute: started and reading; two: done (the default plan takes 102 s).
    h.press('+');
    const running = await h.waitForFrame('running');
    expect(running).toMatch(/chain-reads/);
    expect(running).toMatch(/Reads █+░* \d+ \/ 120/);
    h.press('+');
    const done = await h.waitForFrame('succeeded · terminal');
    for (const step of ['queued', 'started', 'chain-reads', 'analysis', 'report', 'succeeded', 'settled']) expect(done).toContain(step);

    const billing = await h.client.v1.billing('custody', runId);
    const charged = formatProfileAmount(billing.settlement!.chargedAtomic, 'local_custody');
    h.press('b');
    const billingFrame = await h.waitForFrame('Status            settled');
    expect(billingFrame).toContain('Outcome           succeeded');
    expect(billingFrame).toMatch(amountRow('charged', billing.settlement!.chargedAtomic));
    expect(billingFrame).toMatch(amountRow('creator fee', billing.settlement!.creatorFeeAtomic));

    h.press('i');
    await h.waitForFrame('Paid in           ETH on the chainx chain (eip155:4663/native)');

    h.press('e');
    const exported = await h.waitForFrame('bytes of canonical JSON');
    const { artifactId } = await h.client.v1.exportRun(runId);
    expect(exported).toContain(`Artifact          ${artifactId}`);
    expect(exported).toContain('queued → started → chain-reads');

    // The ledger shows the charge, and the posting history.
    h.press('4');
    const ledger = await h.waitForFrame('postings, newest first');
    expect(ledger).toMatch(new RegExp(`charged\\s+█+░* ${charged.replace('.', '\\.')}`));
    expect(ledger).toMatch(/local_custody charge/);
    expect(ledger).toMatch(/local_custody reserve/);

    // Back on the runs list, the run is there.
    h.press('3');
    await h.waitForFrame('esc runs');
    h.press(KEYS.escape);
    await h.waitForFrame((f) => f.includes('Runs 1 ·') && new RegExp(`${runId.slice(0, 8)}…\\s+succeeded\\s+00:00:10\\s+Token Research Agent`).test(f));
  });

  it('cancels a running run: only execution already incurred is charged', async () => {
    await quoteDemoAgent();
    await acceptQuote();
    h.press('.');
    await h.waitForFrame(/running · polling/);
    h.press('x');
    await h.waitForFrame('this cannot be undone');
    h.press('y');
    const cancelled = await h.waitForFrame('cancelled · terminal');
    expect(cancelled).toContain('cancel-requested');
    expect(cancelled).toContain('✔ cancelled: the run is cancelled');
    h.press('b');
    const billing = await h.waitForFrame('Outcome           cancelled');
    expect(billing).toMatch(amountRow('charged', '0'));
    // Cancelling an ended run would change nothing (spec 3.2): the key is no longer offered.
    expect(billing).not.toContain('x cancel run');
    // Its export pane says why there is none: cancelled, so no report.
    h.press('e');
    await h.waitForFrame('No export: this run was cancelled, so it has no report');
  });

  it('under the export-storage fault, the export pane says the storage is unavailable (503)', async () => {
    await quoteDemoAgent();
    await acceptQuote();
    h.press('+', '+');
    await h.waitForFrame('succeeded · terminal');
    await h.client.sim.setFaults({ exportStorageUnavailable: true });
    h.press('e');
    const pane = await h.waitForFrame('No export read: the export storage is unavailable (503, spec 7)');
    expect(pane).not.toContain('there is one only for a run with a report');
  });

  it('resolves a pending billing (reads left unconfirmed) by keys: c charges the held reads', async () => {
    const { runId, held, balance } = await pendingBilling();
    h.press('c');
    const settled = await h.waitForFrame('Status            settled');
    expect(settled).toContain('reconciled: the held reads were confirmed and charged');
    expect(settled).not.toContain('c reads confirmed');
    expect((await h.client.v1.billing('custody', runId)).status).toBe('settled');
    // The held amount moves from pending to charged.
    const after = await balance();
    expect(after.pending).toBe(0n);
    expect(after.charged).toBe(held.charged + held.pending);
    expect(after.available).toBe(held.available);
  });

  it('resolves a pending billing by keys: u returns the held reads, charging only the confirmed ones', async () => {
    const { runId, held, balance } = await pendingBilling();
    h.press('u');
    const settled = await h.waitForFrame('Status            settled');
    expect(settled).toContain('reconciled: the held reads were not confirmed; their amount returned to available');
    expect((await h.client.v1.billing('custody', runId)).status).toBe('settled');
    // The held amount moves from pending back to available.
    const after = await balance();
    expect(after.pending).toBe(0n);
    expect(after.charged).toBe(held.charged);
    expect(after.available).toBe(held.available + held.pending);
  });

  it('explains a refused acceptance of an expired quote', async () => {
    await quoteDemoAgent();
    // Spec 3.1: 240 seconds after creation the quote expires.
    h.press('+', '+', '+', '+', '.');
    await h.waitForFrame('EXPIRED 0:01 ago');
    h.press('a');
    await h.waitForFrame('acceptedContractHash');
    h.press('y');
    const refused = await h.waitForFrame('Acceptance refused: quote_expired (409)');
    expect(refused).toContain('→ The quote is more than 240 seconds old: create a new quote (press q).');
    // A new quote clears it.
    h.press('q');
    const fresh = await h.waitForFrame('expires in 4:00');
    expect(fresh).not.toContain('refused');
  });

  it('edits the form: a bad address is refused with the field named; canonical_metadata is offered', async () => {
    await quoteDemoAgent();
    h.press('e');
    await h.waitForFrame('Quote builder · Token Research Agent');
    // Token contract is the second row.
    h.press(KEYS.down, KEYS.enter);
    await h.waitForFrame('Token contract: 0x6B175474E89094C44Da98b954EedeAC495271d0F█');
    for (let i = 0; i < 40; i += 1) h.press(KEYS.backspace);
    await h.waitForFrame('Token contract: 0x█');
    h.press('zz', KEYS.enter);
    const edited = await h.waitForFrame(/Token contract\*\s+0xzz/);
    expect(edited).toContain('does not match');
    h.press('q');
    const refused = await h.waitForFrame('Quote refused: invalid_input (400)');
    expect(refused).toContain('input.address');

    // The result policy row offers both policies of spec 3.4.
    h.press(KEYS.down, KEYS.down, KEYS.down, KEYS.right);
    await h.waitForFrame(/Result policy\s+canonical_metadata/);
    h.press(KEYS.up, KEYS.up, KEYS.up, KEYS.enter);
    await h.waitForFrame('Token contract: 0xzz█');
    h.press(KEYS.backspace, KEYS.backspace, '6B175474E89094C44Da98b954EedeAC495271d0F', KEYS.enter);
    await h.waitForFrame(/Token contract\*\s+0x6B17/);
    h.press('q');
    const quoted = await h.waitForFrame('expires in 4:00');
    expect(quoted).toContain('Result policy     canonical_metadata');
  });
});
