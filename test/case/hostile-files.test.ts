import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectedCase } from '../../src/case/collect.ts';
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH } from '../../src/case/customer-file.ts';
import { cli } from '../helpers/cli.ts';
import { listing, playAndCollect } from './support.ts';

/**
 * Issue 29, point 1: the support kit reads only plain files and only
 * well-formed documents. Each hostile file (nested 3,000 deep, oversize, a
 * FIFO, a symbolic link, well-formed JSON of the wrong shape) is refused by
 * `case import --out` and `case check` with exit 2, the file and the field
 * named, and nothing written: the directory is listed before and after. The
 * FIFO has no writer, so a kit that opened it for a blocking read would never
 * exit; the test awaits the exit.
 */
type Json = Record<string, any>;
let dir: string;
let paid: CollectedCase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'understudy-case-hostile-'));
  [paid] = (await playAndCollect('fixtures/scenarios/01-complete-report-charged.json')).cases;
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

async function file(name: string, value: unknown): Promise<string> {
  await writeFile(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
  return name;
}

async function refused(args: string[], fileName: string, field: string): Promise<string> {
  let stderrs = '';
  for (const command of [['case', 'import', ...args, '--out', 'scenario.json'], ['case', 'check', ...args]]) {
    const before = await listing(dir);
    const { code, stderr, stdout } = await cli(command, dir);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(`${fileName}: ${field} `);
    expect(stderr).toContain('Nothing was written.');
    expect(stderr).not.toContain('DISAGREE');
    expect(await listing(dir)).toEqual(before);
    stderrs += stderr;
  }
  return stderrs;
}

// Each test runs the CLI several times; on a busy machine a spawn takes seconds, so the bound is generous and only catches a hang.
describe('case import and check refuse hostile files', { timeout: 600_000 }, () => {
  it('an export nested 3,000 levels deep (about 6 KB) is refused by its depth, not by a stack overflow', async () => {
    const exported = clone(paid.export) as Json;
    exported.run.output = '@DEEP@';
    const text = JSON.stringify(exported).replace('"@DEEP@"', `${'['.repeat(3000)}${']'.repeat(3000)}`);
    expect(text.length).toBeLessThan(12_000);
    const stderr = await refused([await file('deep.json', text)], 'deep.json', '(document)');
    expect(stderr).toContain(`nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
    expect(stderr).not.toContain('Maximum call stack');
  });

  it('brackets inside strings do not count as nesting: a deep-looking string is read', async () => {
    const exported = clone(paid.export) as Json;
    exported.run.output.note = `${'['.repeat(3000)}{{{`;
    const { code, stderr } = await cli(['case', 'import', await file('brackets.json', exported)], dir);
    expect(stderr).not.toContain('nests deeper');
    expect(code).toBe(0);
  });

  it('a file over the size bound is refused before it is read', async () => {
    const text = JSON.stringify(paid.export);
    await file('huge.json', text + ' '.repeat(MAX_DOCUMENT_BYTES + 1 - text.length));
    const stderr = await refused(['huge.json'], 'huge.json', '(file)');
    expect(stderr).toContain(`is ${MAX_DOCUMENT_BYTES + 1} bytes: a customer document is at most ${MAX_DOCUMENT_BYTES} bytes`);
    await rm(join(dir, 'huge.json'));
  });

  it('a FIFO named export.json, alone or in a bundle directory, is refused at once', async () => {
    const bundle = join(dir, 'fifo-bundle');
    await mkdir(bundle);
    await writeFile(join(bundle, 'billing.json'), JSON.stringify(paid.billing));
    execFileSync('mkfifo', [join(bundle, 'export.json')]);
    execFileSync('mkfifo', [join(dir, 'export.json')]);
    await refused(['export.json'], 'export.json', '(file)');
    const stderr = await refused(['fifo-bundle'], join('fifo-bundle', 'export.json'), '(file)');
    expect(stderr).toContain('is a FIFO: a customer document is read only from a regular file');
    await rm(bundle, { recursive: true });
    await rm(join(dir, 'export.json'));
  });

  it("a symbolic link is refused, even to a well-formed document, and the linked file's text is never printed", async () => {
    await file('private.txt', 'TOP SECRET: the root password is hunter2');
    await symlink(join(dir, 'private.txt'), join(dir, 'link.json'));
    const stderr = await refused(['link.json'], 'link.json', '(file)');
    expect(stderr).toContain('is a symbolic link');
    expect(stderr).not.toContain('TOP SECRET');
    await file('real-export.json', paid.export);
    await symlink(join(dir, 'real-export.json'), join(dir, 'link-export.json'));
    await refused(['link-export.json'], 'link-export.json', '(file)');
    // A link to a bundle directory is not read as the bundle either.
    await mkdir(join(dir, 'real-bundle'));
    await writeFile(join(dir, 'real-bundle', 'export.json'), JSON.stringify(paid.export));
    await symlink(join(dir, 'real-bundle'), join(dir, 'link-bundle'));
    await refused(['link-bundle'], 'link-bundle', '(file)');
    await rm(join(dir, 'link.json'));
    await rm(join(dir, 'link-export.json'));
    await rm(join(dir, 'link-bundle'));
  });

  it('a run.input whose fields are objects names run.input.chain', async () => {
    const exported = clone(paid.export) as Json;
    exported.run.input.chain = { name: 'ethereum' };
    const stderr = await refused([await file('input-objects.json', exported)], 'input-objects.json', 'run.input.chain');
    expect(stderr).toContain('run.input.chain must be a string (got an object');
  });

  it('version: {} names the version field it lacks', async () => {
    const exported = clone(paid.export) as Json;
    exported.version = {};
    await refused([await file('version-empty.json', exported)], 'version-empty.json', 'version.id');
  });

  it('events [null, 1, "x"] names events[0]', async () => {
    const exported = clone(paid.export) as Json;
    exported.events = [null, 1, 'x'];
    const stderr = await refused([await file('events-junk.json', exported)], 'events-junk.json', 'events[0]');
    expect(stderr).toContain('events[0] must be an object (got null');
  });

  it('more wrong shapes, each named: a run id that is a number, a status out of the enum, an event time that is no date-time, a billing count that is a string', async () => {
    const cases: Array<[string, (e: Json) => void, string]> = [
      ['run-id-number.json', (e) => (e.run.id = 42), 'run.id'],
      ['status-done.json', (e) => (e.run.status = 'done'), 'run.status'],
      ['event-time.json', (e) => (e.events[2].createdAt = 'yesterday'), 'events[2].createdAt'],
    ];
    for (const [name, edit, field] of cases) {
      const exported = clone(paid.export) as Json;
      edit(exported);
      await refused([await file(name, exported)], name, field);
    }
    const billing = clone(paid.billing) as Json;
    billing.authorizedRpcCalls = '87';
    await refused([await file('receipt.json', paid.receipt), await file('billing-count.json', billing)], 'billing-count.json', 'authorizedRpcCalls');
  });

  it('an event message of a million digits is read in one pass (the reads pattern once retried it from every digit and hung)', async () => {
    const exported = clone(paid.export) as Json;
    for (const event of exported.events) if (event.step === 'chain-reads') event.message = '1'.repeat(1_000_000);
    const { code, stderr } = await cli(['case', 'import', await file('digits.json', exported)], dir);
    expect(stderr).toContain("assumed: duration: no event gives it; the listing's default");
    expect(code).toBe(0);
  });

  it('fields the kit does not use are ignored, as the spec allows more', async () => {
    const exported = clone(paid.export) as Json;
    exported.run.somethingNew = { deeply: [{ nested: true }] };
    exported.events[0].extra = 7;
    exported.comment = 'pasted by the customer';
    const { code, stderr } = await cli(['case', 'import', await file('extra-fields.json', exported)], dir);
    expect(stderr).not.toContain('Nothing was written');
    expect(code).toBe(0);
  });
});

describe('case import --out writes a new file only', { timeout: 600_000 }, () => {
  it('case import doc.json --out doc.json is refused, with --force too, and the document is unchanged', async () => {
    await file('doc.json', paid.export);
    const original = await readFile(join(dir, 'doc.json'), 'utf8');
    for (const out of ['doc.json', './doc.json']) {
      for (const force of [[], ['--force']]) {
        const before = await listing(dir);
        const { code, stderr, stdout } = await cli(['case', 'import', 'doc.json', '--out', out, ...force], dir);
        expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
        expect(stderr).toContain(`${out}: --out `);
        if (force.length) expect(stderr).toContain('is one of the documents read: an input is never written over');
        expect(await listing(dir)).toEqual(before);
      }
    }
    expect(await readFile(join(dir, 'doc.json'), 'utf8')).toBe(original);
  });

  it('an existing file is refused naming it; --force replaces it', async () => {
    await file('doc.json', paid.export);
    await file('taken.json', 'notes by support');
    const before = await listing(dir);
    const refusedRun = await cli(['case', 'import', 'doc.json', '--out', 'taken.json'], dir);
    expect(refusedRun.code).toBe(2);
    expect(refusedRun.stderr).toContain('taken.json: --out exists: evidence is never replaced without --force');
    expect(await listing(dir)).toEqual(before);
    const forced = await cli(['case', 'import', 'doc.json', '--out', 'taken.json', '--force'], dir);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'taken.json'), 'utf8')).name).toBe(`case-${paid.runId}`);
    // The replacement left no temporary file beside it.
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a dangling link or a link to a file is never written through, with --force too', async () => {
    await file('doc.json', paid.export);
    await mkdir(join(dir, 'elsewhere'), { recursive: true });
    await file('elsewhere/kept.json', 'kept');
    await symlink(join(dir, 'elsewhere', 'planted.json'), join(dir, 'dangling.json'));
    await symlink(join(dir, 'elsewhere', 'kept.json'), join(dir, 'to-kept.json'));
    for (const [out, force] of [['dangling.json', []], ['dangling.json', ['--force']], ['to-kept.json', []], ['to-kept.json', ['--force']]] as const) {
      const before = await listing(dir);
      const { code, stderr } = await cli(['case', 'import', 'doc.json', '--out', out, ...force], dir);
      expect(code).toBe(2);
      expect(stderr).toContain(`${out}: --out is a symbolic link`);
      expect(await listing(dir)).toEqual(before);
    }
    expect(await readdir(join(dir, 'elsewhere'))).toEqual(['kept.json']);
    expect(await readFile(join(dir, 'elsewhere', 'kept.json'), 'utf8')).toBe('kept');
  });

  it('--force without --out is a usage error', async () => {
    const { code, stderr } = await cli(['case', 'import', 'doc.json', '--force'], dir);
    expect(code).toBe(2);
    expect(stderr).toContain('--force');
  });
});
