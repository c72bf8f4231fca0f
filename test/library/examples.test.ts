import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../../bin/package.js';
import { runChild } from './child.ts';

/**
 * The examples docs/testing.md quotes, each run by its own runner as a user
 * would run it, importing 'understudy' as an installed package (the package
 * refers to itself by name; its exports point at dist/package, built here).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples', 'testing');
/** A runner's own command-line entry, as npx would start it. */
const binOf = (path: string) => join(ROOT, 'node_modules', path);

const run = (args: string[], env: Record<string, string> = {}) => runChild(process.execPath, args, { cwd: ROOT, env });

/** The counts of a vitest or jest --json report. */
const counts = (json: string) => {
  const report = JSON.parse(json.slice(json.indexOf('{'))) as { numTotalTests: number; numPassedTests: number; numFailedTests: number };
  return { total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests };
};

describe('docs/testing.md examples', () => {
  beforeAll(async () => {
    await ensurePackageBuilt();
  });

  it('vitest: a simulator per file, reset before each test, and a run-wide one from globalSetup', async () => {
    const result = await run([binOf('vitest/vitest.mjs'), 'run', '--config', join(EXAMPLES, 'vitest/vitest.config.ts'), '--reporter=json']);
    expect(result.code, result.stderr).toBe(0);
    expect(counts(result.stdout)).toEqual({ total: 3, passed: 3, failed: 0 });
  });

  it('node:test: the same with before/beforeEach/after', async () => {
    const result = await run(['--test', '--test-reporter=tap', join(EXAMPLES, 'node-test/quotes.test.mjs')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# pass 2$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
  });

  it("node:test: a receiver judging by Date.now() with verifyDelivery verifies the challenge from a frozen simulator a day on", async () => {
    const result = await run(['--test', '--test-reporter=tap', join(EXAMPLES, 'node-test/webhook.test.mjs')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# pass 1$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
  });

  it('jest: the same with beforeAll/beforeEach/afterAll, ES modules as they are', async () => {
    const result = await run([binOf('jest/bin/jest.js'), '--config', join(EXAMPLES, 'jest/jest.config.js'), '--json'], { NODE_OPTIONS: '--experimental-vm-modules --no-warnings' });
    expect(result.code, result.stderr).toBe(0);
    expect(counts(result.stdout)).toEqual({ total: 2, passed: 2, failed: 0 });
  });

  it('scale: 100 isolated tests on 2 workers, each file with its own simulator', async () => {
    const result = await run([binOf('vitest/vitest.mjs'), 'run', '--config', join(EXAMPLES, 'scale/vitest.config.ts'), '--reporter=json']);
    expect(result.code, result.stderr).toBe(0);
    expect(counts(result.stdout)).toEqual({ total: 100, passed: 100, failed: 0 });
  });

  it('docs/testing.md quotes each example file as it is', async () => {
    const doc = await readFile(join(ROOT, 'docs/testing.md'), 'utf8');
    const quoted = [...doc.matchAll(/<!-- quoted from (\S+) -->\n```\w+\n([\s\S]*?)\n```/g)];
    expect(quoted.length).toBeGreaterThanOrEqual(10);
    for (const [, path, text] of quoted) expect(text, path).toBe((await readFile(join(ROOT, path), 'utf8')).trimEnd());
  });
});
