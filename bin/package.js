// Builds what the npm package ships (dist/package): the CLI, the library
// ('understudy'), the typed client ('understudy/client') and the webhook
// verifier ('understudy/webhook') as ES modules, and, for `npm pack`, their
// type declarations. `npm pack` runs it (prepack); the tests that run the
// docs/testing.md examples build the JavaScript only.
//
// One build at a time is current: dist/package/build.json names the sources'
// state it was built from (and whether it has types), so a second caller with
// the same sources uses it as it is. A build is made elsewhere and renamed in.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, sourcesState } from './build.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGE_DIR = join(ROOT, 'dist', 'package');

/** The entry points, by the file name each gets in dist/package (package.json "exports" names them). */
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
 * dist/package for the current sources, built first when it is missing or
 * stale (or lacks types that were asked for). Two levels below the root, as
 * src/cli/ is, so that code finding fixtures/ relative to itself still does.
 */
export async function ensurePackageBuilt({ types = false } = {}) {
  const sources = createHash('sha256').update(sourcesState()).digest('hex').slice(0, 16);
  const stamp = readStamp();
  if (stamp?.sources === sources && (stamp.types || !types)) return PACKAGE_DIR;
  const building = join(ROOT, 'dist', `.package-${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    await bundle(Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(ROOT, path)])), building, { sourcemap: false });
    if (types) declarations(building);
    writeFileSync(join(building, 'build.json'), `${JSON.stringify({ sources, types })}\n`);
    swapIn(building);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return PACKAGE_DIR;
}

/** Replaces dist/package by `building`; the old build is moved aside first (a rename cannot replace a directory that has files). */
function swapIn(building) {
  const old = join(ROOT, 'dist', `.package-old-${process.pid}`);
  if (existsSync(PACKAGE_DIR)) renameSync(PACKAGE_DIR, old);
  try {
    renameSync(building, PACKAGE_DIR);
  } catch (error) {
    // Another process put its build in place meanwhile: it is of the same sources or newer.
    if (!existsSync(PACKAGE_DIR)) throw error;
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
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

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${await ensurePackageBuilt({ types: !process.argv.includes('--no-types') })}\n`);
