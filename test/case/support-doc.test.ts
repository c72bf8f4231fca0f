import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/cli.ts';

/**
 * docs/support.md's table of case commands matches the commands: every flag
 * it shows for `case import`, `case check` and `case export` is one the
 * command's --help lists (the commands themselves run in hostile-files,
 * bad-input, bundle and round-trip).
 */
describe('docs/support.md', { timeout: 300_000 }, () => {
  it('every flag its table shows for a case command is a flag of that command', async () => {
    const doc = await readFile(join(ROOT, 'docs/support.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `npx understudy case (import|check|export) ([^`]*)`/gm)];
    expect(rows.map((r) => r[1]).sort()).toEqual(['check', 'export', 'import']);
    for (const [, sub, usage] of rows) {
      const { code, stdout } = await cli(['case', sub, '--help'], ROOT);
      expect(code).toBe(0);
      for (const flag of usage.match(/--[a-z-]+/g) ?? []) expect(stdout, `case ${sub} ${flag}`).toContain(`  ${flag}`);
    }
    expect(doc).toContain('case import FILE... [--out scenario.json] [--force]');
    expect(doc).toContain('case export RUN_ID --out DIR [--force]');
  });
});
