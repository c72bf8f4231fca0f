import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { endWalk, runBlocks, shellBlocks } from '../helpers/doc-blocks.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * docs/drift.md, run as written: its ```sh blocks in order in one bash (shell
 * variables carry over, as in a reader's terminal). Only what a second copy on
 * a shared machine must change is changed: port 4010 becomes a free one and
 * /tmp/drift a fresh folder. Its one ```text block is the command's synopsis,
 * which must be the usage the command prints.
 */

let walk: ChildProcess | null = null;
let scratch: string | null = null;
afterAll(() => endWalk(walk, scratch));

describe('docs/drift.md', () => {
  it('shows the synopsis the command prints with --help', async () => {
    const doc = await readFile(join(ROOT, 'docs/drift.md'), 'utf8');
    const [synopsis] = shellBlocks(doc, 'text');
    const help = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'drift', '--help'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.on('exit', () => resolve(out));
    });
    expect(help.split('\n')[0]).toBe(`Usage: ${synopsis.trim()}`);
  });

  it('runs every sh block in order: the plan sends nothing, the check against serve --env production finds no stated difference', async () => {
    const doc = await readFile(join(ROOT, 'docs/drift.md'), 'utf8');
    const sh = shellBlocks(doc);
    expect(sh.join('\n')).toContain('drift --url http://127.0.0.1:4010 --key "$KEY" --yes');
    scratch = await mkdtemp(join(tmpdir(), 'understudy-drift-doc-'));
    const port = await freePort();
    const blocksRun = sh.map((block) => block.replace(/(?<=[: ])4010\b/g, String(port)).replace(/\/tmp\/drift\b/g, scratch!));
    const { code, stdout, stderr, transcript } = await runBlocks(blocksRun, { cwd: ROOT, label: 'drift.md', started: (child) => (walk = child) });
    expect(code, transcript).toBe(0);
    expect(stderr.match(/--- drift.md sh block \d+/g)).toHaveLength(sh.length);
    // The plan alone: nothing sent, exit 2.
    expect(stdout).toContain('The drift check will send to');
    expect(stderr).toContain('Nothing was sent. Run again with --yes');
    expect(stdout).toContain('nothing sent (exit 2)');
    // The check: exit 0, the table, the JSON.
    expect(stdout, transcript).toContain('Nothing the spec states differs.');
    expect(stdout).toContain('nothing the spec states differs\n');
    expect(stdout).toContain('stated differences: 0');
    const report = JSON.parse(await readFile(join(scratch, 'report.json'), 'utf8'));
    expect(report.score.statedDifferences).toBe(0);
    expect(report.probes.filter((p: { verdict: string }) => p.verdict === 'same').length).toBeGreaterThan(25);
  }, 240_000);
});
