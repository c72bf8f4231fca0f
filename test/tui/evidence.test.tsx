import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import { formatProfileAmount } from '../../src/tui/amount.ts';
import { startWiredConsole, temporaryFolder, type WiredConsole } from './wired-console.tsx';
import { acceptDemoQuote } from '../helpers/frames.ts';

/**
 * Evidence for a support ticket: `w` on a run saves what the key and the
 * control API can read about it to a folder beside the store, with a
 * summary.md; the Key screen says where the simulator is so curl can follow.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(): Promise<{ c: WiredConsole; dir: string }> {
  const folder = await temporaryFolder();
  cleanups.push(folder.remove);
  const c = await startWiredConsole({ storePath: folder.storePath, seed: '1', env: 'test', clock: 'frozen' });
  cleanups.push(() => c.quit());
  return { c, dir: folder.dir };
}

describe('evidence for a ticket', () => {
  it('shows the embedded simulator’s address and the key secret, and curl gets the same key there', async () => {
    const { c } = await start();
    const home = await c.waitForFrame('Balances');
    const url = c.wiring.options.service!.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(home).toMatch(new RegExp(`Service\\s+${url.replace(/\./g, '\\.')}`));
    expect(home).toContain('(embedded) · /sim needs no token');
    const secret = /Secret\s+(svc_test_[A-Za-z0-9_-]{43})/.exec(home)![1];
    // What a person would paste into curl beside the console.
    const key = await createClient({ baseUrl: url, key: secret }).v1.getKey();
    expect(key.id).toBe(c.store.getState().key!.id);
  });

  it('w on a settled run saves its receipt, export, billing, events and ledger lines with a readable summary.md', async () => {
    const { c, dir } = await start();
    await c.waitForFrame('Balances');
    await acceptDemoQuote(c);
    const runId = c.store.getState().run.runId!;
    c.press('+', '+');
    await c.waitForFrame('succeeded · terminal');
    expect(c.lastFrame()).toContain('w save evidence');

    c.press('w');
    await c.waitForFrame('✔ saved summary.md and 5 answers to');
    const folder = join(dir, 'evidence', `run-${runId}`);
    expect(c.store.getState().notice).toBe(`saved summary.md and 5 answers to ${folder}`);
    expect((await readdir(folder)).sort()).toEqual(['billing.json', 'export.json', 'ledger.json', 'receipt.json', 'run.json', 'scenario.json', 'summary.md']);

    const read = async (name: string) => JSON.parse(await readFile(join(folder, name), 'utf8'));
    const client = createClient({ baseUrl: c.wiring.options.service!.url, key: c.store.getState().keys[0].secret });
    // The files are the service's answers as they were.
    expect(await read('billing.json')).toEqual(await client.v1.billing('custody', runId));
    expect(await read('receipt.json')).toEqual(await client.v1.receipt(runId));
    const exported = await client.v1.exportRun(runId);
    expect(await read('export.json')).toEqual({ artifactId: exported.artifactId, export: exported.export });
    const run = await read('run.json');
    expect(run.run.id).toBe(runId);
    expect(run.events.map((e: { step: string }) => e.step)).toContain('settled');
    const ledger = (await read('ledger.json')) as Array<{ kind: string; runId: string }>;
    expect(ledger.length).toBeGreaterThan(1);
    expect(ledger.every((line) => line.runId === runId)).toBe(true);
    expect(ledger.map((line) => line.kind)).toContain('charge');

    const summary = await readFile(join(folder, 'summary.md'), 'utf8');
    const billing = await client.v1.billing('custody', runId);
    const charged = billing.settlement!.chargedAtomic;
    expect(summary).toContain(`# Run ${runId}`);
    expect(summary).toContain(`Saved from ${c.wiring.options.service!.url} (test environment)`);
    expect(summary).toContain('| Status | succeeded |');
    expect(summary).toContain(`| Charged | ${formatProfileAmount(charged, 'local_custody')} (${charged} atomic) |`);
    expect(summary).toMatch(/## Events[\s\S]*\*\*settled\*\*/);
    expect(summary).toMatch(/## Ledger lines[\s\S]*\| charge \|/);
    expect(summary).toContain(`- \`receipt.json\`: GET /v1/runs/${runId}/receipt`);
  });

  it('says which parts a run does not have yet instead of failing', async () => {
    const { c, dir } = await start();
    await c.waitForFrame('Balances');
    await acceptDemoQuote(c, /Run [0-9a-f]{8}… Token Research Agent\s+queued/);
    const runId = c.store.getState().run.runId!;
    c.press('w');
    await c.waitForFrame('✔ saved summary.md and 3 answers to');
    const folder = join(dir, 'evidence', `run-${runId}`);
    const files = await readdir(folder);
    expect(files).not.toContain('receipt.json');
    const summary = await readFile(join(folder, 'summary.md'), 'utf8');
    // Spec 7: 404 'This run has no settlement receipt.' while it runs.
    expect(summary).toContain(`- \`receipt.json\` not saved: GET /v1/runs/${runId}/receipt answered 404`);
    expect(summary).toContain('| Status | queued |');
  });
});
