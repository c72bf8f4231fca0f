import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../helpers/simulator.ts';

/** Issue 14, point 8: what a crash mid-write leaves beside the store is removed when it opens. */

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('leftovers of an interrupted write', () => {
  it('the temporary files of a snapshot write and of a journal rotation are removed at open; the store opens with its data, other files untouched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'understudy-leftovers-'));
    dirs.push(dir);
    const first = await startSimulator({ dir, demo: false });
    const created = await first.json({ method: 'POST', url: '/sim/accounts', body: { type: 'solana', label: 'kept' } });
    expect(created.status).toBe(201);
    await first.destroy();
    // What a crash between writing and renaming leaves: half a snapshot, half a journal.
    await writeFile(join(dir, '.store.json.tmp'), '{"format":"understudy-store","vers');
    await writeFile(join(dir, '.store.json.journal.tmp'), '{"s":9,"o":[["accounts","x"');
    // Not the store's: another file that happens to end in .tmp stays.
    await writeFile(join(dir, '.notes.tmp'), 'mine');
    const again = await startSimulator({ dir, demo: false });
    const names = await readdir(dir);
    expect(names).not.toContain('.store.json.tmp');
    expect(names).not.toContain('.store.json.journal.tmp');
    expect(names).toContain('.notes.tmp');
    const account = await again.json({ url: `/sim/accounts/${created.body.account.id}` });
    expect(account.status).toBe(200);
    expect(account.body.account.label).toBe('kept');
    await again.destroy();
  });
});
