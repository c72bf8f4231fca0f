import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Architecture boundaries (design: src/client imports fetch and, at most,
 * types from sim/http/schemas; src/tui imports ink, react, zustand and
 * src/client, never sim/).
 */

async function sourcesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => join(e.parentPath, e.name));
}

async function importsOf(file: string): Promise<Array<{ specifier: string; isTypeOnly: boolean }>> {
  const text = await readFile(file, 'utf8');
  const found: Array<{ specifier: string; isTypeOnly: boolean }> = [];
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+'([^']+)'/gms)) found.push({ specifier: match[3], isTypeOnly: Boolean(match[2]) });
  for (const match of text.matchAll(/import\(\s*'([^']+)'\s*\)/g)) found.push({ specifier: match[1], isTypeOnly: false });
  return found;
}

describe('import boundaries', () => {
  it('src/client imports only node built-ins of its own and, as types, the schemas', async () => {
    for (const file of await sourcesUnder('src/client')) {
      for (const { specifier, isTypeOnly } of await importsOf(file)) {
        const allowed = specifier.startsWith('./') || (isTypeOnly && specifier.includes('sim/http/schemas'));
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('src/tui never reaches into sim/', async () => {
    const allowedPackages = ['ink', 'react', 'react/jsx-runtime', 'zustand', 'zustand/vanilla', '@alcalzone/ink-table'];
    for (const file of await sourcesUnder('src/tui')) {
      for (const { specifier } of await importsOf(file)) {
        // Outside src/tui: the client, and the support case kit's plain modules (src/case; checked below to stay off sim/).
        const allowed = allowedPackages.includes(specifier) || (specifier.startsWith('.') && !specifier.includes('sim/') && !/\.\.\/\.\.\/(?!client\/|case\/)/.test(specifier));
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('nothing src/tui imports reaches sim/, following every relative import to its end', async () => {
    const seen = new Set<string>();
    const visit = async (file: string, via: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      expect(file.startsWith('sim/'), `${via} reaches ${file}`).toBe(false);
      for (const { specifier, isTypeOnly } of await importsOf(file)) {
        if (!specifier.startsWith('.') || isTypeOnly) continue;
        await visit(relative('.', resolve(dirname(file), specifier)), `${via} → ${file}`);
      }
    };
    for (const file of await sourcesUnder('src/tui')) await visit(file, 'src/tui');
    expect([...seen].some((f) => f.startsWith('src/case/'))).toBe(true);
  });
});
