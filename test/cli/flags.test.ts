import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFlags, SIMULATOR_FLAGS, UsageError } from '../../src/cli/args.ts';
import { cli, kill, ROOT, start } from '../helpers/cli.ts';
import { runChild } from '../library/child.ts';
import { SERVE_FLAGS } from '../../src/cli/serve.ts';
import { REHEARSE_FLAGS } from '../../src/cli/rehearse.ts';
import { helpText } from '../../src/cli/args.ts';

/** Flags and paths a stranger types: refused with the flag named, before anything is written. */

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'understudy-flags-'));
  dirs.push(dir);
  return dir;
}

describe('--store', () => {
  it.each([['serve', '--port', '0'], ['tui']])("'' is refused by %s, naming the flag, and writes nothing in the working folder", async (...command) => {
    const cwd = await scratch();
    const result = await cli([...command, '--store', ''], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("--store is empty (got ''); give a file path such as .understudy/store.json.\n");
    expect(await readdir(cwd)).toEqual([]);
  });

  it('a path under a file is refused naming that file, not with a raw EEXIST from mkdir', async () => {
    const cwd = await scratch();
    await writeFile(join(cwd, 'notes.txt'), 'a file\n');
    for (const store of ['notes.txt/store.json', 'notes.txt/deeper/store.json']) {
      const result = await cli(['serve', '--port', '0', '--store', store], cwd);
      expect(result.code, store).toBe(2);
      expect(result.stderr).toBe(`--store '${store}' cannot be created: ${join(cwd, 'notes.txt')} is a file, not a folder; give a file path such as .understudy/store.json.\n`);
    }
    expect(await readdir(cwd)).toEqual(['notes.txt']);
  });

  it('a folder is refused: a store is a file with siblings named after it', async () => {
    const cwd = await scratch();
    for (const store of ['.', cwd, 'new-folder/']) {
      const result = await cli(['serve', '--port', '0', '--store', store], cwd);
      expect(result.code, store).toBe(2);
      expect(result.stderr).toBe(`--store '${store}' names a folder, not a store file; give a file path such as .understudy/store.json.\n`);
    }
    expect(await readdir(cwd)).toEqual([]);
  });

  it('a new file in a folder yet to be made is accepted (the store creates the folder)', () => {
    expect(parseFlags(['--store', join(tmpdir(), 'understudy-not-yet', 'a', 'store.json')], SIMULATOR_FLAGS).flags.store).toMatch(/store\.json$/);
  });
});

describe('serve --record FILE', () => {
  it('refuses an existing FILE (a file, or a dangling link) with exit 2 naming it and --force; nothing is written', async () => {
    const cwd = await scratch();
    await writeFile(join(cwd, 'evidence.json'), 'the customer\'s recording\n');
    await symlink(join(cwd, 'nowhere.json'), join(cwd, 'dangling.json'));
    for (const file of ['evidence.json', 'dangling.json']) {
      const result = await cli(['serve', '--port', '0', '--store', 'store.json', '--record', file], cwd);
      expect(result.code, file).toBe(2);
      expect(result.stderr).toBe(`--record: ${file} already exists; pass --force to replace it, or name a new file.\n`);
    }
    expect((await readdir(cwd)).sort()).toEqual(['dangling.json', 'evidence.json']);
    expect(await readFile(join(cwd, 'evidence.json'), 'utf8')).toBe("the customer's recording\n");
  });

  it('--force replaces it: the session is recorded over the old file once serve stops', async () => {
    const cwd = await scratch();
    await writeFile(join(cwd, 'evidence.json'), 'old\n');
    const served = start(['serve', '--port', '0', '--clock', 'frozen', '--store', 'store.json', '--record', 'evidence.json', '--force'], cwd);
    try {
      expect((await fetch(`${await served.ready()}/sim/clock`)).status).toBe(200);
      served.child.kill('SIGTERM');
      expect(await served.exited).toEqual({ code: 0, signal: null });
      expect(JSON.parse(await readFile(join(cwd, 'evidence.json'), 'utf8')).description).toContain('serve --record');
    } finally {
      await kill(served);
    }
  });

  it('--force without --record is refused naming both', async () => {
    const result = await cli(['serve', '--port', '0', '--store', 'store.json', '--force'], await scratch());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('--force only goes with --record FILE (it lets the recording replace FILE).\n');
  });
});

describe('--seed', () => {
  it("'abc' is refused by serve before the store is made: the contract says --seed N", async () => {
    const cwd = await scratch();
    const result = await cli(['serve', '--port', '0', '--store', 'store.json', '--seed', 'abc'], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("--seed must be a whole number such as 1 or 42, without leading zeros (got 'abc').\n");
    expect(await readdir(cwd)).toEqual([]);
  });

  it.each(['01', '1.5', '-1', '1e3', '', ' 7', '0x10'])('%j is refused too (it would seed another world than the number it reads as)', (seed) => {
    expect(() => parseFlags(['--seed', seed], SIMULATOR_FLAGS)).toThrow(`--seed must be a whole number such as 1 or 42, without leading zeros (got '${seed}').`);
  });

  it('whole numbers are taken as written', () => {
    for (const seed of ['0', '1', '42', '9007199254740991']) expect(parseFlags(['--seed', seed], SIMULATOR_FLAGS).flags.seed).toBe(seed);
  });
});

describe('stray arguments', () => {
  it.each([
    [['serve', '--port', '0', 'stray'], 'stray'],
    [['tui', 'demo'], 'demo'],
    [['webhook', 'listen', '--port', '0', '--secret', 's', 'extra'], 'extra'],
  ])('%j is refused naming %s', async (args, stray) => {
    const result = await cli(args, await scratch());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`Unexpected argument '${stray}': this command takes only --flags. Run with --help for the list.\n`);
  });

  it.each([
    [['--clock', 'frozen', 'on'], 'on'],
    [['-p', '0'], '-p'],
    [['--store=a.json', 'b.json'], 'b.json'],
  ])('%j: a value after a flag that took its own, or a single-dash flag, is refused naming %s', (args, stray) => {
    expect(() => parseFlags(args, SIMULATOR_FLAGS)).toThrow(`Unexpected argument '${stray}'`);
  });

  it('webhook probe takes one URL', async () => {
    const result = await cli(['webhook', 'probe', 'http://127.0.0.1:1/a', 'http://127.0.0.1:1/b', '--secret', 's'], await scratch());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("probe takes one URL; unexpected 'http://127.0.0.1:1/b'.\n");
  });

  it('a command that declares positionals still gets them', () => {
    expect(parseFlags(['a.json', '--json', 'b.json'], [{ name: 'json', help: '' }], { positionals: 'FILE...' }).positionals).toEqual(['a.json', 'b.json']);
    expect(() => parseFlags(['a.json'], [{ name: 'json', help: '' }])).toThrow(UsageError);
  });
});

// ---------------------------------------------------------------------------

interface Semver {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  validRange(range: string): string | null;
}
const semver = createRequire(import.meta.url)('semver') as Semver;

/** Installed packages whose engines.node range leaves out `node` (npm ci's EBADENGINE warning). */
async function excluding(node: string, lock: { packages: Record<string, { link?: boolean }> }, root = ROOT): Promise<string[]> {
  const refused: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.link) continue;
    const manifest = join(root, path, 'package.json');
    if (!existsSync(manifest)) continue; // an optional package for another platform
    const { name, version, engines } = JSON.parse(await readFile(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } };
    const range = engines?.node;
    if (range && semver.validRange(range) && !semver.satisfies(node, range, { includePrerelease: true })) refused.push(`${name}@${version} (${path}) requires node ${range}`);
  }
  return refused;
}

describe('npm start --store X (the -- forgotten)', () => {
  it('says npm kept the flag and shows the form with --, run through npm itself', async () => {
    const cwd = await scratch();
    const store = join(cwd, 'kept.json');
    const result = await runChild('npm', ['start', '--store', store], { cwd: ROOT });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`npm kept --store for itself: flags before \`--\` are npm's own, so understudy never saw it. Put it after \`--\`:\n  npm start -- --store ${store}\n`);
    expect(existsSync(store)).toBe(false);
  });

  it('names every kept flag, a placeholder where the value cannot be told, and the script run', () => {
    const env = { npm_lifecycle_event: 'serve', npm_config_port: 'true', npm_config_seed: 'true' };
    expect(() => parseFlags(['5', '3'], SERVE_FLAGS, { env })).toThrow(
      new UsageError("npm kept --port, --seed for itself: flags before `--` are npm's own, so understudy never saw them. Put them after `--`:\n  npm run serve -- --port N --seed N"),
    );
    // --store=X reaches npm's variable with its value.
    expect(() => parseFlags([], SIMULATOR_FLAGS, { env: { npm_lifecycle_event: 'start', npm_config_store: 'a.json' } })).toThrow(/npm start -- --store a\.json$/);
    // Given after --, or outside our scripts (npm test, a user's .npmrc), nothing is said.
    expect(parseFlags(['--seed', '3'], SIMULATOR_FLAGS, { env: { npm_lifecycle_event: 'start', npm_config_seed: 'true' } }).flags.seed).toBe('3');
    expect(parseFlags([], SIMULATOR_FLAGS, { env: { npm_lifecycle_event: 'test', npm_config_seed: '3' } }).flags.seed).toBe('1');
  });
});

describe('--help', () => {
  it.each([
    ['serve', SERVE_FLAGS],
    ['rehearse', REHEARSE_FLAGS],
  ])('%s --help puts every help text in one column, two spaces past the longest flag', (_name, specs) => {
    const rows = helpText('Usage', specs).split('\n').filter((line) => line.startsWith('  --'));
    expect(rows.length).toBe(specs.length);
    const columns = rows.map((row) => /^ {2}--\S+(?: \S+)? +/.exec(row)![0].length);
    expect(new Set(columns).size).toBe(1);
    const longest = Math.max(...rows.map((row) => /^ {2}--\S+(?: \S+)?/.exec(row)![0].length));
    expect(columns[0]).toBe(Math.max(28, longest + 2));
  });
});

describe('engines', () => {
  it('no package in package-lock.json declares an engines.node range that excludes the running Node', async () => {
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'));
    expect(Object.keys(lock.packages).length).toBeGreaterThan(100);
    expect(await excluding(process.versions.node, lock)).toEqual([]);
  });

  it('the check does see a range that excludes it (cookie 2.0.2 asked for node >=22 before the light-my-request override)', async () => {
    const root = await scratch();
    const path = 'node_modules/cookie';
    await mkdir(join(root, path), { recursive: true });
    await writeFile(join(root, path, 'package.json'), JSON.stringify({ name: 'cookie', version: '2.0.2', engines: { node: '>=22' } }));
    expect(await excluding('20.19.0', { packages: { [path]: {} } }, root)).toEqual(['cookie@2.0.2 (node_modules/cookie) requires node >=22']);
    expect(await excluding('22.0.0', { packages: { [path]: {} } }, root)).toEqual([]);
  });
});
