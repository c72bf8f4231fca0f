// Builds what the npm package ships (dist/package): the CLI, the library
// ('understudy'), the typed client ('understudy/client') and the webhook
// verifier ('understudy/webhook') as ES modules, with their type
// declarations. `npm pack` runs it (prepack), and so do the tests that run the
// docs/testing.md examples and install the packed package.
//
// One build at a time is current: dist/package/build.json names the sources'
// state it was built from, so a later caller with the same sources uses it as
// it is. Builders take turns (a lock directory), so a build is never replaced
// under a process already running from it by a twin of the same sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { bundle, sourcesState } from './build.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGE_DIR = join(ROOT, 'dist', 'package');

/** The entry points, by the file name each gets in dist/package (package.json "exports" names them). */
/** Longer than a build takes on a loaded machine (tsc is most of it). */
const LOCK_STALE_MS = 5 * 60_000;

const ENTRIES = {
  cli: 'src/cli/main.ts',
  index: 'src/library/index.ts',
  client: 'src/client/index.ts',
  webhook: 'src/webhook/verify.ts',
};

function readStamp() {
  try {
    return JSON.parse(readFileSync(join(PACKAGE_DIR, 'build.json'), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * dist/package for the current sources, with type declarations, built first
 * when it is missing or stale. Two levels below the root, as src/cli/ is, so
 * that code finding fixtures/ relative to itself still does.
 */
export async function ensurePackageBuilt() {
  // This builder and its tsc settings are part of what the build depends on.
  const builder = ['bin/package.js', 'tsconfig.package.json'].map((path) => `${path} ${statSync(join(ROOT, path)).mtimeMs}`).join('\n');
  const sources = createHash('sha256').update(`${sourcesState()}\n${builder}`).digest('hex').slice(0, 16);
  if (readStamp()?.sources === sources) return PACKAGE_DIR;
  const release = await takeTurn();
  try {
    if (readStamp()?.sources === sources) return PACKAGE_DIR;
    const building = join(ROOT, 'dist', `.package-${process.pid}`);
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    try {
      await bundle(Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)])), building, { sourcemap: false });
      declarations(building);
      writeFileSync(join(building, 'build.json'), `${JSON.stringify({ sources })}\n`);
      swapIn(building);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  } finally {
    release();
  }
  return PACKAGE_DIR;
}

/** Waits for the builders' lock (a directory: made or refused atomically); one left by a builder that died is taken over after LOCK_STALE_MS. */
async function takeTurn() {
  const lock = join(ROOT, 'dist', '.package-lock');
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(200);
    }
  }
}

/** Replaces dist/package by `building`; the old build is moved aside first (a rename cannot replace a directory that has files). */
function swapIn(building) {
  const old = join(ROOT, 'dist', `.package-old-${process.pid}`);
  if (existsSync(PACKAGE_DIR)) renameSync(PACKAGE_DIR, old);
  renameSync(building, PACKAGE_DIR);
  rmSync(old, { recursive: true, force: true });
}

/**
 * tsc declares every file the entries import, the simulator's internals
 * included; the package keeps only the declarations its public types reach,
 * with their imports naming .js (what a consumer's TypeScript resolves to
 * the .d.ts beside it).
 */
function declarations(building) {
  const all = join(building, '.types-all');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.package.json'), '--outDir', all], { cwd: ROOT, stdio: 'inherit' });
  const wanted = Object.values(ENTRIES)
    .filter((path) => !path.startsWith('src/cli/'))
    .map((path) => join(all, path.replace(/\.ts$/, '.d.ts')));
  const seen = new Set();
  while (wanted.length > 0) {
    const file = wanted.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, (_, lead, quote, path) => {
      wanted.push(resolve(dirname(file), `${path}.d.ts`));
      return `${lead}${quote}${path}.js${quote}`;
    });
    const target = join(building, 'types', relative(all, file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  rmSync(all, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${await ensurePackageBuilt()}\n`);
