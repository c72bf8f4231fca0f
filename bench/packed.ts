/**
 * understudy as a user has it: `npm pack` (its prepack builds dist/package), the
 * tarball installed into a new project in a temporary directory. The library rows
 * and the user's test suite run there. vitest is linked in from this checkout (the
 * same version the project tests with), so nothing is fetched for it.
 */
import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensurePackageBuilt } from '../bin/package.js';
import { log, ROOT, tempDir } from './helpers.ts';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface Packed {
  /** The temporary directory (removed by the caller). */
  dir: string;
  /** The project with understudy installed from its tarball. */
  project: string;
}

export async function installPacked(): Promise<Packed> {
  const dir = await tempDir('packed');
  // Built first, in turn with any other builder; prepack then finds the build current.
  await ensurePackageBuilt();
  const packed = await run(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
  const project = join(dir, 'project');
  await mkdir(join(project, 'node_modules'), { recursive: true });
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'understudy-user', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, filename)], { cwd: project, maxBuffer: 64 * 2 ** 20 });
  await symlink(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
  log(`packed ${filename} and installed it in ${project}`);
  return { dir, project };
}
