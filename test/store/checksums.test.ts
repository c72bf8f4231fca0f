import { spawn } from 'node:child_process';
import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSimulator } from '../../sim/app.ts';
import { frame } from '../../sim/store/checksum.ts';
import { StoreFileError } from '../../sim/store/file-store.ts';
import { startSimulator } from '../helpers/simulator.ts';
import { copyStore, filesOf, openingError, openStore, removeTempDirs, stateOf, tempDir } from './support.ts';

/**
 * Issue 14.3: every journal line, archive line and the snapshot carries a
 * checksum; a store failing one is refused at open, naming the file and the
 * position, and left as it was. Only a torn journal tail (no newline: a crash
 * mid-append, never acknowledged) is dropped.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

afterEach(removeTempDirs);

/** A store after a clean stop: cold rows in the archive, hot rows in the snapshot. */
async function stoppedStore(): Promise<string> {
  const path = join(await tempDir(), 's.json');
  const store = await openStore(path);
  store.transact((tx) => {
    for (let i = 0; i < 5; i += 1) tx.put('cold', { id: `c${i}`, n: 1000 + i });
    tx.put('hot', { id: 'h', n: 4242 });
  });
  await store.close();
  return path;
}

/** A store as a crash leaves it: three acknowledged changes in the journal after its snapshot. */
async function crashedStore(): Promise<{ path: string; state: ReturnType<typeof stateOf> }> {
  const path = join(await tempDir(), 's.json');
  const store = await openStore(path);
  for (let i = 0; i < 3; i += 1) {
    store.transact((tx) => tx.put('hot', { id: `h${i}`, n: 7000 + i }));
    await store.settled();
  }
  const state = stateOf(store);
  const copy = await copyStore(path);
  await store.close();
  return { path: copy, state };
}

/** Replaces the first `from` in the file (same length: only the bytes change). */
async function replaceIn(file: string, from: string, to: string, occurrence = 0): Promise<number> {
  const bytes = await readFile(file);
  let at = -1;
  for (let i = 0; i <= occurrence; i += 1) at = bytes.indexOf(from, at + 1);
  expect(at).toBeGreaterThanOrEqual(0);
  bytes.write(to, at);
  await writeFile(file, bytes);
  return at;
}

async function expectRefused(path: string, file: string, message?: RegExp): Promise<StoreFileError> {
  const before = await filesOf(path);
  const error = await openingError(path);
  expect(error).toBeInstanceOf(StoreFileError);
  expect(error!.file).toBe(file);
  expect(error!.message).toContain(file);
  if (message) expect(error!.message).toMatch(message);
  expect(await filesOf(path)).toEqual(before);
  return error!;
}

describe('store checksums: damage is refused, naming the file and the position', () => {
  it('an archived row with one digit changed is refused, naming the archive, the line and its byte offset', async () => {
    const path = await stoppedStore();
    const archive = `${path}.rows.1`;
    const lines = (await readFile(archive, 'utf8')).split('\n');
    await replaceIn(archive, '1002', '1092');
    await expectRefused(path, archive, new RegExp(`line 3 \\(byte ${Buffer.byteLength(lines.slice(0, 2).join('\n')) + 1}\\) does not match its checksum`));
  });

  it('a snapshot with one digit changed is refused, naming it', async () => {
    const path = await stoppedStore();
    await replaceIn(path, '4242', '4243');
    await expectRefused(path, path, /does not match its checksum/);
  });

  it('a flipped archive newline is refused at open (the simulator never serves the store, nor a snapshot export that is not JSON)', async () => {
    const dir = await tempDir();
    const first = await startSimulator({ dir });
    const account = (await first.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm', label: 'rows' } })).body.account.id as string;
    for (let i = 1; i <= 3; i += 1) {
      expect((await first.json({ method: 'POST', url: `/sim/accounts/${account}/deposits`, body: { profile: 'local_custody', amountAtomic: String(i * 1000) } })).status).toBe(201);
    }
    await first.close();
    const archive = join(dir, 'store.json.rows.1');
    const bytes = await readFile(archive);
    const newline = bytes.indexOf(0x0a, bytes.length >> 1);
    bytes[newline] ^= 0x20;
    await writeFile(archive, bytes);
    const before = await filesOf(join(dir, 'store.json'));
    const refused = await buildSimulator({ storePath: join(dir, 'store.json'), clock: 'frozen', seed: 1, limits: false }).then(
      async (built) => {
        // What it would answer, for the failure message.
        const exported = await built.app.inject({ url: '/sim/snapshot' });
        await built.close();
        return new Error(`opened; GET /sim/snapshot answered ${exported.statusCode}: ${exported.body.slice(0, 80)}`);
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StoreFileError);
    expect((refused as StoreFileError).file).toBe(archive);
    expect((refused as Error).message).toMatch(/line \d+ \(byte \d+\)/);
    expect(await filesOf(join(dir, 'store.json'))).toEqual(before);
  });

  it('serve refuses a damaged store with exit code 2, naming the file and the line', async () => {
    const path = await stoppedStore();
    await replaceIn(`${path}.rows.1`, '1003', '1993');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--store', path], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A serve that opened the store says so on stdout: it is stopped, and the exit code tells.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('listening') && child.kill('SIGKILL'));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain(`${path}.rows.1`);
    expect(stderr).toMatch(/line 4 \(byte \d+\) does not match its checksum/);
  });
});

describe('store checksums: the journal', () => {
  it('a changed digit in the last journal line is damage, not a torn tail: refused, naming the line', async () => {
    const { path } = await crashedStore();
    const journal = `${path}.journal`;
    await replaceIn(journal, '7002', '7012');
    await expectRefused(path, journal, /line 4 \(byte \d+\) does not match its checksum/);
  });

  it("a flipped newline ending the last journal line is refused: the acknowledged line it ends is not taken for a torn tail", async () => {
    const { path } = await crashedStore();
    const journal = `${path}.journal`;
    const bytes = await readFile(journal);
    bytes[bytes.length - 1] ^= 0x01;
    await writeFile(journal, bytes);
    await expectRefused(path, journal, /line 4 \(byte \d+\) is complete but the newline ending it/);
  });

  it('a changed middle line, lines swapped or repeated, a journal emptied or deleted: each refused, naming the journal', async () => {
    const { path } = await crashedStore();
    const journal = `${path}.journal`;
    const good = await readFile(journal);
    const lines = good.toString('utf8').split('\n'); // header, 3 entries, ''
    const damaged: Array<[string, string | null, RegExp]> = [
      ['a middle line changed', good.toString('utf8').replace('7001', '7101'), /line 3 \(byte \d+\) does not match its checksum/],
      ['two lines swapped', [lines[0], lines[2], lines[1], lines[3], ''].join('\n'), /line 2 \(byte \d+\) holds change \d+ where change \d+ belongs/],
      ['a line repeated', [lines[0], lines[1], lines[2], lines[2], lines[3], ''].join('\n'), /line 4 \(byte \d+\) holds change/],
      ['emptied', '', /line 1 \(byte 0\) is not the header/],
      ['deleted', null, /it is missing, but the snapshot s\.json expects journal \d+/],
    ];
    for (const [what, text, message] of damaged) {
      if (text === null) await rm(journal);
      else await writeFile(journal, text);
      const error = await expectRefused(path, journal, message);
      expect(error.message, what).toMatch(message);
    }
    await writeFile(journal, good);
    expect(await openingError(path)).toBeNull();
  });

  it('a snapshot whose seq was raised is refused, whether or not its checksum was made to match', async () => {
    const { path, state } = await crashedStore();
    const original = await readFile(path, 'utf8');
    const document = JSON.parse(original);
    delete document.crc;
    document.seq += 2;
    await writeFile(path, original.replace(/"seq":\d+/, `"seq":${document.seq}`));
    await expectRefused(path, path, /does not match its checksum/);
    // Made to match, only the journal can tell: its header names the snapshot it follows.
    await writeFile(path, frame(JSON.stringify(document)));
    await expectRefused(path, `${path}.journal`, /its header \(line 1\) names journal \d+ following change \d+, but the snapshot s\.json \(change \d+\) expects/);
    await writeFile(path, original);
    const store = await openStore(path);
    expect(stateOf(store)).toEqual(state);
    await store.close();
  });

  it('a torn tail (no newline: a crash mid-append) is still dropped, and only it', async () => {
    const { path, state } = await crashedStore();
    const journal = `${path}.journal`;
    const good = await readFile(journal);
    const line = frame(JSON.stringify({ s: 99, o: [['hot', 'torn', { id: 'torn', n: 1 }]] }));
    // Every prefix of a line, the whole line without its newline included, is what a crash can leave.
    for (const cut of [1, line.length >> 1, line.length - 1, line.length]) {
      const copy = await copyStore(path);
      await writeFile(`${copy}.journal`, Buffer.concat([good, Buffer.from(line.slice(0, cut))]));
      const store = await openStore(copy);
      expect(stateOf(store)).toEqual(state);
      expect(await readFile(`${copy}.journal`)).toEqual(good);
      await store.close();
    }
  });
});

describe('store checksums: stores of an earlier format', () => {
  it.each([1, 2])('a version %i store (from a development build, never released) is refused, naming the file and how to start a new one, and left as found', async (version) => {
    const path = join(await tempDir(), 's.json');
    const archive = '{"c":"cold","i":"a","r":{"id":"a","n":1}}\n';
    await writeFile(`${path}.rows.1`, archive);
    await writeFile(path, JSON.stringify({ format: 'understudy-store', version, seq: 4, meta: { m: 1 }, collections: { cold: {} }, archive: { file: 's.json.rows.1', length: Buffer.byteLength(archive) } }));
    await writeFile(`${path}.journal`, '{"s":5,"o":[["cold","b",{"id":"b","n":6}]],"m":[["m",2]]}\n');
    await expectRefused(path, path, new RegExp(`its version ${version} is not the one this build reads \\(3\\)\\. .*start a new store with --store NEW_PATH`));
  });
});
