// Builds the CLI (our TypeScript merged into a few ES modules; npm packages stay
// imports, loaded by Node itself) and keeps it current: `ensureBuilt()` builds
// only when the sources differ from every build already made.
// Why a build: starting through tsx's loader costs a round trip to its loader
// thread per module and a second V8 isolate for that thread. Measured 2026-11-28
// (2 shared cores, load 11–17): all shipped scenarios in one `understudy scenario`
// took 6.5 and 6.7 s of CPU from the build against 8.1 and 8.0 s through tsx
// (+22 % on that headline figure); `--help` 0.35 s against 1.3 s. esbuild and tsx
// are devDependencies: a clone has them (`npm ci`), the packed package runs its
// own build (dist/package) and needs neither.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const SOURCE_DIRS = ['src', 'sim', 'fixtures'];
const KEEP_BUILDS = 4;

/** Every source file's path and modification time: a build is current while this is unchanged. */
export function sourcesState() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|json)$/.test(entry.name)) files.push(`${path.slice(ROOT.length + 1)} ${statSync(path).mtimeMs}`);
    }
  };
  for (const dir of SOURCE_DIRS) walk(join(ROOT, dir));
  files.push(`package.json ${statSync(join(ROOT, 'package.json')).mtimeMs}`);
  return files.sort().join('\n');
}

/** Bundles TypeScript entry points into `outdir` the way the CLI is built (the benchmark builds its own programs with it too). */
export async function bundle(entries, outdir, { sourcemap = 'linked' } = {}) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: entries,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap,
    logLevel: 'warning',
    tsconfig: join(ROOT, 'tsconfig.json'),
  });
}

/**
 * The built CLI entry for the current sources, building it first when needed.
 * Each build has its own directory, named by the sources' state, two levels
 * deep as src/cli/ is (code that finds files relative to its module still
 * finds them); it is built elsewhere and renamed into place, so a process
 * starting meanwhile never loads half a build.
 */
export async function ensureBuilt() {
  const name = createHash('sha256').update(sourcesState()).digest('hex').slice(0, 16);
  const entry = join(DIST, name, 'main.js');
  if (existsSync(entry)) return entry;
  mkdirSync(DIST, { recursive: true });
  const building = join(DIST, `.building-${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  await bundle([join(ROOT, 'src/cli/main.ts')], building);
  try {
    renameSync(building, join(DIST, name));
  } catch (error) {
    // Another process built the same sources first: use its build.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(entry)) throw error;
  }
  removeOldBuilds(name);
  return entry;
}

function removeOldBuilds(current) {
  const builds = readdirSync(DIST, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[0-9a-f]{16}$/.test(d.name) && d.name !== current)
    .map((d) => ({ name: d.name, at: statSync(join(DIST, d.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of builds.slice(KEEP_BUILDS - 1)) rmSync(join(DIST, old.name), { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${await ensureBuilt()}\n`);
