import { open } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreFs } from '../../sim/store/store-fs.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Issue 29 point 2: an import cannot stall the simulator. While the imported state is
 * written to disk, the state before goes on answering reads (it is on disk already, so
 * no answer waits for the durability gate), writes are refused with 503 and change
 * nothing, and the new state goes into service only once it is on disk. The moment is
 * held open by the store's own file door (a new archive generation's open waits for
 * the test), so this is an ordering, not a race.
 */

let t: TestSimulator | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('a snapshot import in progress', () => {
  it('reads answer from the state before, writes are refused 503 changing nothing, and the import then applies whole', async () => {
    let hold = false;
    let reached: () => void = () => undefined;
    const atWrite = new Promise<void>((resolve) => (reached = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const storeFs: StoreFs = {
      async open(path, flags) {
        if (hold && flags === 'w+' && /\.rows\.\d+$/.test(path)) {
          reached();
          await released;
        }
        return open(path, flags);
      },
    };
    t = await startSimulator({ storeFs });
    const before = (await t.request({ url: '/sim/snapshot' })).body;
    const made = await t.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm', label: 'made after the export' } });
    expect(made.status).toBe(201);
    const accountsNow = (await t.json({ url: '/sim/accounts' })).body.accounts.map((a: { id: string }) => a.id).sort();

    hold = true;
    const importing = t.request({ method: 'PUT', url: '/sim/snapshot', headers: { 'content-type': 'application/json' }, body: before });
    await atWrite;
    // The state before answers reads at once, the account made after the export included.
    const read = await t.json({ url: '/sim/accounts' });
    expect(read.status).toBe(200);
    expect(read.body.accounts.map((a: { id: string }) => a.id).sort()).toEqual(accountsNow);
    expect((await t.json({ url: '/sim/clock' })).status).toBe(200);
    // A write would be lost with the state it was made against: refused, nothing applied.
    const refused = await t.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm', label: 'made during the import' } });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('import') });
    release();
    hold = false;
    expect((await importing).statusCode).toBe(200);

    // Whole: the state of the export, without the account made after it or the refused one.
    const after = (await t.json({ url: '/sim/accounts' })).body.accounts;
    expect(after.map((a: { id: string }) => a.id)).not.toContain(made.body.account.id);
    expect(after.map((a: { label: string }) => a.label)).not.toContain('made during the import');
    expect(after).toHaveLength(accountsNow.length - 1);
  });
});
