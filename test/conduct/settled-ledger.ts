import { createClient } from '../../src/client/index.ts';

const TERMINAL = ['succeeded', 'partial', 'failed', 'cancelled'];
/** Far more clock steps than a reference client's few runs need to end; reaching it means a run never ends. */
const MAX_STEPS = 500;

/** What the ledger shows for one run: its reservation, and what was charged for it (at settlement and at reconciliation). */
export interface RunLedger {
  accountId: string;
  reservedAtomic: bigint;
  chargedAtomic: bigint;
}

/**
 * Over the control API at `url`: moves the clock from job to job until every
 * run has ended and its billing is settled (a pending billing is reconciled as
 * confirmed), then reads every account's ledger and sums it per run.
 */
export async function settleAndReadLedger(url: string): Promise<Map<string, RunLedger>> {
  const control = createClient({ baseUrl: url });
  for (let step = 0; ; step += 1) {
    const reads = await Promise.all((await control.sim.runs()).map((run) => control.sim.run(run.id)));
    for (const read of reads.filter((r) => r.billing.status === 'pending')) await control.sim.reconcileRun(read.run.id, { confirmed: true });
    const open = reads.filter((r) => !TERMINAL.includes(r.run.status) || r.billing.status === 'reserved');
    if (open.length === 0) break;
    if (step === MAX_STEPS) throw new Error(`runs still open after ${MAX_STEPS} clock steps: ${open.map((r) => `${r.run.id} ${r.run.status}/${r.billing.status}`).join(', ')}`);
    await control.sim.advance({ next: true });
  }
  const byRun = new Map<string, RunLedger>();
  for (const account of await control.sim.accounts()) {
    for (const entry of await control.sim.ledger(account.id)) {
      if (entry.runId === null) continue;
      const run = byRun.get(entry.runId) ?? { accountId: account.id, reservedAtomic: 0n, chargedAtomic: 0n };
      if (entry.kind === 'reserve') run.reservedAtomic += BigInt(entry.amountAtomic);
      if (entry.kind === 'charge' || entry.kind === 'reconcile') run.chargedAtomic += BigInt(entry.amountAtomic);
      byRun.set(entry.runId, run);
    }
  }
  return byRun;
}
