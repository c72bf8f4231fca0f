import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../../bin/package.js';
import { runChild } from '../library/child.ts';
import { waitFor } from '../helpers/wait.ts';
import { onTerminal } from '../helpers/terminal.ts';
import { startSimulator } from '../helpers/simulator.ts';
import { acceptOk, provision, quoteOk } from '../quotes/support.ts';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';

/**
 * The README's front page ("What it does"): each ```shell line runs here as
 * written, except what a second copy on a shared machine must change (the
 * rehearsal's report and the console's store go to a scratch folder); the
 * support kit's line is run by the curl walk (walk.test.ts) on the walk's own
 * run. Its documents list names every file in docs/, and its known traps
 * say what the simulator does.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let readme = '';
let scratch = '';
beforeAll(async () => {
  readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  scratch = await mkdtemp(join(tmpdir(), 'understudy-front-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The front page's runnable lines: the ```shell blocks (the walk's are ```sh). */
const lines = () => [...readme.matchAll(/^ *```shell\n *(.+)\n *```$/gm)].map((m) => m[1].trim());
const lineWith = (start: string) => {
  const found = lines().find((l) => l.startsWith(start));
  expect(found, `a front-page line starting ${start}`).toBeDefined();
  return found!;
};

describe('README front page', () => {
  it('has one runnable line and a link each for rehearsal, presenter mode, the support kit and the library', () => {
    expect(lines()).toHaveLength(4);
    const front = readme.slice(readme.indexOf('## What it does'), readme.indexOf('## Two commands'));
    for (const link of ['docs/drill.md', 'src/tui/README.md#presenter-mode', 'docs/support.md', 'docs/testing.md']) expect(front).toContain(`](${link})`);
    expect(lineWith('npm run rehearse -- --chaos')).toBeTruthy();
    expect(lineWith('npm start -- --play')).toMatch(/--pace \d/);
  });

  it('runs the rehearsal line: the polite client under a storm, graded, exit 0', async () => {
    const line = `${lineWith('npm run rehearse')} `.replace('npm run rehearse -- ', `npm run rehearse -- --report ${join(scratch, 'rehearsal.json')} `);
    const result = await runChild('bash', ['-c', line], { cwd: ROOT });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Conduct report: score 100/);
    expect(JSON.parse(await readFile(join(scratch, 'rehearsal.json'), 'utf8')).rules.length).toBeGreaterThanOrEqual(9);
  }, 300_000);

  it('runs the presenter line in a terminal: the scenario plays itself to its last step', async () => {
    // A terminal of 100×30, and a store of its own.
    const terminal = onTerminal(`${lineWith('npm start -- --play')} --store ${join(scratch, 'console.json')}`, { cwd: ROOT, cols: 100, rows: 30 });
    try {
      const done = 'partial-report-nothing-charged · 7/7 steps · all as expected · done';
      await waitFor(() => terminal.drawn().includes(done), 'the scenario to play to its last step', 240_000).catch((error: Error) => {
        throw new Error(`${error.message}; the terminal showed:\n${terminal.drawn().slice(-3000)}`);
      });
      expect(terminal.drawn()).toContain('▶ Step 7/7:');
    } finally {
      terminal.end();
    }
  }, 300_000);

  it('runs the library line: startUnderstudy from the package by its name, its URL and frozen clock printed', async () => {
    await ensurePackageBuilt();
    const result = await runChild('bash', ['-c', lineWith('node --input-type=module')], { cwd: ROOT });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+ 2026-01-01T00:00:00\.000Z\n$/);
  }, 300_000);

  it("the support kit's line is the walk's, where it runs on the walk's run", () => {
    const walk = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n');
    const line = lineWith('npx understudy explain');
    expect(walk).toContain(line.replace('npx understudy', 'node bin/understudy.js').replace('RUN_ID', '$RUN'));
  });

  it('its documents list names every file in docs/', async () => {
    const list = readme.slice(readme.indexOf('## Documents'));
    for (const file of await readdir(join(ROOT, 'docs'))) expect(list, file).toContain(`docs/${file}`);
  });

  it("its known traps name partial's omission, the magic input that makes a partial run, and settlement.outcome listing partial, as the simulator has them", async () => {
    const traps = readme.slice(readme.indexOf('## Known traps'), readme.indexOf('## The control API'));
    expect(traps).toMatch(/`partial` is missing from the description's run status enum/);
    expect(traps).toContain('`0a0a`');
    expect(await readFile(join(ROOT, 'docs/magic-inputs.md'), 'utf8')).toMatch(/\| `0a0a` \| ends `partial`/);
    const address = /the address `(0x[0-9a-f]{40})`/.exec(traps)?.[1];
    expect(address).toMatch(/0a0a$/);
    const s = await startSimulator();
    try {
      const doc = (await s.json({ url: '/v1/openapi.json' })).body;
      const schemas = JSON.stringify(doc);
      expect(schemas).toContain('"enum":["queued","running","succeeded","failed","cancelled"]');
      expect(schemas).toContain('"enum":["succeeded","partial","failed","cancelled","expired"]');
      // The trap's address makes a partial run, and its settlement says partial.
      const buyer = await provision(s, 'local_custody');
      const { run } = await acceptOk(s, buyer, await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID, { chain: 'ethereum', address }));
      await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 600 } });
      expect((await s.json({ url: `/v1/runs/${run.id}`, key: buyer.secret })).body.run.status).toBe('partial');
      expect((await s.json({ url: `/v1/custody/runs/${run.id}/billing`, key: buyer.secret })).body.settlement.outcome).toBe('partial');
    } finally {
      await s.destroy();
    }
  });
});
