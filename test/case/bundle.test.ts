import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBundle } from '../../src/case/bundle.ts';
import { collectCase } from '../../src/case/collect.ts';
import { createClient } from '../../src/client/index.ts';
import { openScenarioSession, type ScenarioSession } from '../../src/scenario/runner.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import { cli } from '../helpers/cli.ts';
import { listing } from './support.ts';

/**
 * Point 4: `case export RUN_ID --out DIR` writes receipt, export, billing,
 * run and events, the run's ledger lines, the reproducing scenario and
 * summary.md; no secret the simulator issued is anywhere in it; `case check
 * DIR` agrees with itself; an existing bundle is never overwritten (issue 29,
 * point 4: unless --force, and never through a link planted in DIR).
 */
let session: ScenarioSession;
let url: string;
let runId: string;
let work: string;
let accountId: string;
const secrets: string[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'understudy-bundle-'));
  session = await openScenarioSession(await loadScenario('fixtures/scenarios/09-pending-reconciled-confirmed.json'), '09');
  while (!session.done) await session.step();
  url = session.result.redactions.find(([, name]) => name === '{{simulator}}')![0];
  const control = createClient({ baseUrl: url, retries: 0 });
  const [run] = await control.sim.runs();
  runId = run.id;
  const { run: detail } = await control.sim.run(runId);
  accountId = (detail as unknown as { accountId: string }).accountId;
  // Every secret issued: the scenario's key secrets, a destination's signing secret, a monitor's webhook secret.
  secrets.push(...session.result.redactions.filter(([, name]) => name.startsWith('<secret')).map(([secret]) => secret));
  const destination = await control.sim.createDestination(accountId, { url: 'https://hooks.example.com/understudy' });
  secrets.push(destination.signingSecret);
  expect(secrets.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await session.close();
  await rm(work, { recursive: true, force: true });
});

async function filesOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of await readdir(dir)) out.set(name, await readFile(join(dir, name), 'utf8'));
  return out;
}

// Each test runs the CLI several times; on a busy machine a spawn takes seconds, so the bound is generous and only catches a hang.
describe('the evidence bundle', { timeout: 600_000 }, () => {
  it('case export with the customer key: every part, no secret, and case check DIR agrees', async () => {
    const dir = join(work, 'with-key');
    const exported = await cli(['case', 'export', runId, '--url', url, '--key', secrets[0], '--out', dir], work);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const files = await filesOf(dir);
    expect([...files.keys()].sort()).toEqual(['billing.json', 'export.json', 'ledger.json', 'receipt.json', 'run.json', 'scenario.json', 'summary.md']);
    for (const [name, text] of files) for (const secret of secrets) expect(text.includes(secret), `${name} holds a secret`).toBe(false);
    const ledger = JSON.parse(files.get('ledger.json')!);
    expect(ledger.entries.map((l: { kind: string }) => l.kind)).toEqual(['reserve', 'charge', 'hold', 'release', 'reconcile']);
    expect(files.get('summary.md')).toContain('The rule that decided the charge: spec 3.3');
    expect(files.get('summary.md')).toContain('total charged: 0.0073535 ETH (7353500000000000 atomic)');
    const checked = await cli(['case', 'check', dir], work);
    expect(checked.stdout).toContain('AGREE: all');
    expect(checked.code).toBe(0);
  });

  it('without a key a read-only key is made, used and revoked; its secret is nowhere in the bundle', async () => {
    const dir = join(work, 'without-key');
    const collected = await collectCase({ url, runId });
    expect(collected.secrets).toHaveLength(1);
    await writeBundle(collected, dir);
    const all = [...secrets, ...collected.secrets];
    for (const [name, text] of await filesOf(dir)) for (const secret of all) expect(text.includes(secret), `${name} holds a secret`).toBe(false);
    const answer = await fetch(`${url}/v1/runs/${runId}`, { headers: { authorization: `Bearer ${collected.secrets[0]}` } });
    expect(answer.status).toBe(401);
  });

  it('an existing bundle is not overwritten and nothing is written (exit 2 naming the file); --force replaces it and notes survive', async () => {
    const dir = join(work, 'taken');
    await cli(['case', 'export', runId, '--url', url, '--out', dir], work);
    await writeFile(join(dir, 'summary.md'), 'notes by support');
    await writeFile(join(dir, 'notes.txt'), 'more notes');
    const before = await listing(work);
    const again = await cli(['case', 'export', runId, '--url', url, '--out', dir], work);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${join(dir, 'run.json')}: --out exists: evidence is never replaced without --force`);
    expect(again.stderr).toContain('Nothing was written.');
    expect(await listing(work)).toEqual(before);
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toBe('notes by support');
    const forced = await cli(['case', 'export', runId, '--url', url, '--out', dir, '--force'], work);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain(`# Run ${runId}`);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('more notes');
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a dangling link planted in DIR is never followed: exit 2 naming it, nothing written inside or outside DIR, with --force too', async () => {
    const dir = join(work, 'planted');
    const outside = join(work, 'outside');
    await mkdir(dir);
    await mkdir(outside);
    await symlink(join(outside, 'summary.md'), join(dir, 'summary.md'));
    const control = createClient({ baseUrl: url, retries: 0 });
    for (const force of [[], ['--force']]) {
      const before = await listing(work);
      const keysBefore = await control.sim.keys(accountId);
      const run = await cli(['case', 'export', runId, '--url', url, '--out', dir, ...force], work);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${join(dir, 'summary.md')}: --out is a symbolic link`);
      expect(await listing(work)).toEqual(before);
      // Refused before the simulator was asked anything: no read-only key was made for it.
      expect(await control.sim.keys(accountId)).toEqual(keysBefore);
    }
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(dir)).toEqual(['summary.md']);
  });

  it('DIR that is a link to another directory is refused, and nothing is written there', async () => {
    const target = join(work, 'link-target');
    await mkdir(target);
    await symlink(target, join(work, 'dir-link'));
    const before = await listing(work);
    const run = await cli(['case', 'export', runId, '--url', url, '--out', join(work, 'dir-link')], work);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(work, 'dir-link')}: --out is a symbolic link`);
    expect(await listing(work)).toEqual(before);
    expect(await readdir(target)).toEqual([]);
  });
});

