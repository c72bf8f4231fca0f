import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../../bin/package.js';
import { runChild } from './child.ts';

/**
 * `npm pack`, then the tarball installed into an empty project (its
 * dependencies from the registry, through npm's cache when it has them), and
 * in that project: a node:test suite using the library, the client, the
 * webhook verifier, `npx understudy serve` and `npx understudy webhook
 * listen` (installed/installed.test.js), and TypeScript compiling against the
 * declarations the package ships (installed/check.ts).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const INSTALLED = join(import.meta.dirname, 'installed');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string;
let project: string;

describe('the packed package, installed into an empty project', () => {
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
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'understudy-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    for (const file of ['installed.test.js', 'check.ts', 'tsconfig.json']) await copyFile(join(INSTALLED, file), join(project, file));
    const installed = await runChild(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, filename)], { cwd: project });
    expect(installed.code, installed.stderr).toBe(0);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs the library, the client, the verifier, serve and webhook listen there', async () => {
    const result = await runChild(process.execPath, ['--test', '--test-reporter=tap', 'installed.test.js'], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# pass 3$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
  });

  it('type-checks a TypeScript user of the package against the declarations it ships', async () => {
    const result = await runChild(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project });
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});
