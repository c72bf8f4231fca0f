import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../../bin/package.js';
import { runChild } from './child.ts';

/**
 * `npm pack`, then the tarball installed into a fresh `npm init -y` project
 * (its dependencies from the registry, through npm's cache when it has them;
 * no "type" set, so the ES-module files are .mjs and .mts), and in that
 * project: an install without EBADENGINE warnings on this Node, a node:test
 * suite using the library, the client, the webhook verifier, `npx understudy
 * serve` and `npx understudy webhook listen` (installed/installed.test.js),
 * docs/testing.md's node:test examples as given, and TypeScript compiling
 * against the declarations the package ships (installed/check.ts).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const INSTALLED = join(import.meta.dirname, 'installed');
const EXAMPLES = join(ROOT, 'examples', 'testing', 'node-test');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string;
let project: string;
let installed: { code: number; stdout: string; stderr: string };

describe('the packed package, installed into a fresh npm init -y project', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'understudy-pack-'));
    project = join(dir, 'project');
    await mkdir(project);
    // Built before npm pack (its prepack then finds the build current), in turn with any other test building it.
    await ensurePackageBuilt();
    const packed = await runChild(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
    expect(packed.code, packed.stderr).toBe(0);
    const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/understudy.js', 'dist/package/index.js', 'dist/package/cli.js', 'dist/package/types/src/library/index.d.ts', 'fixtures/chains/demo-transfers.json', 'package.json']));
    // The sources stay out: the package runs its build.
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('sim/') || p.startsWith('test/'))).toEqual([]);
    const init = await runChild(NPM, ['init', '-y'], { cwd: project });
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(project, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    // .mjs and .mts: ES modules whatever the project's "type".
    const copies: Array<[string, string]> = [
      [join(INSTALLED, 'installed.test.js'), 'installed.test.mjs'],
      [join(INSTALLED, 'check.ts'), 'check.mts'],
      [join(EXAMPLES, 'quotes.test.mjs'), 'quotes.test.mjs'],
      [join(EXAMPLES, 'webhook.test.mjs'), 'webhook.test.mjs'],
    ];
    for (const [from, to] of copies) await copyFile(from, join(project, to));
    const tsconfig = JSON.parse(await readFile(join(INSTALLED, 'tsconfig.json'), 'utf8'));
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['check.mts'] }));
    installed = await runChild(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, filename)], { cwd: project });
    expect(installed.code, installed.stderr).toBe(0);
    // A pack and an install from the registry: minutes on a busy machine with a cold cache.
  }, 600_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("installs without an EBADENGINE warning: fastify's light-my-request dedupes to the one understudy holds, whose cookie runs on Node 20", async () => {
    expect(installed.stdout + installed.stderr).not.toMatch(/EBADENGINE/);
    const listed = await runChild(NPM, ['ls', '--all', '--json', 'cookie'], { cwd: project });
    const cookies = [...listed.stdout.matchAll(/"cookie": \{\s*"version": "([^"]+)"/g)].map((m) => m[1]);
    expect(cookies.length).toBeGreaterThan(0);
    for (const version of cookies) expect(version).toMatch(/^1\./);
  });

  it("runs docs/testing.md's node:test examples as given: quotes.test.mjs and the verifyDelivery receiver", async () => {
    const result = await runChild(process.execPath, ['--test', '--test-reporter=tap', 'quotes.test.mjs', 'webhook.test.mjs'], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# pass 3$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
  });

  it('runs the library, the client, the verifier, serve and webhook listen there', async () => {
    const result = await runChild(process.execPath, ['--test', '--test-reporter=tap', 'installed.test.mjs'], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# pass 3$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
  });

  it('type-checks a TypeScript user of the package against the declarations it ships', async () => {
    const result = await runChild(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});
