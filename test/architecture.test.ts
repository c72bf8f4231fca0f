import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules of DEVELOPERS.md and the design note, checked on the source:
 * sim/runtime touches only node built-ins; sim/domain has no Fastify, lowdb or
 * src/; sim/store and sim/http never reach into src/; and nothing in sim/
 * outside runtime reads the wall clock or Math.random.
 */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => join(e.parentPath, e.name));
}

/** Import specifiers, with type-only imports marked `type:` (domain may import store types). */
async function specifiers(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  const typeOnly = [...text.matchAll(/import\s+type\s[^;]*?from\s+'([^']+)'/g)].map((m) => m[1]);
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => (typeOnly.includes(m[1]) ? `type:${m[1]}` : m[1]));
}

const rules: Array<{ dir: string; forbid: (spec: string) => boolean; why: string }> = [
  { dir: 'sim/runtime', forbid: (s) => !/^(type:)?(node:|\.\/)/.test(s), why: 'runtime imports node built-ins only' },
  { dir: 'sim/domain', forbid: (s) => s === 'fastify' || s.startsWith('@fastify') || s === 'lowdb' || s.includes('/src/') || s.startsWith('../http') || s.startsWith('../store/'), why: 'domain is plain TypeScript' },
  { dir: 'sim/store', forbid: (s) => s === 'fastify' || s.startsWith('@fastify') || s.includes('/src/'), why: 'store has no HTTP and no src/' },
  { dir: 'sim/http', forbid: (s) => s.includes('/src/'), why: 'sim never imports src/' },
];

describe('architecture', () => {
  for (const rule of rules) {
    it(`${rule.dir}: ${rule.why}`, async () => {
      const files = await sources(rule.dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        for (const spec of await specifiers(file)) expect(rule.forbid(spec), `${file} imports ${spec}`).toBe(false);
      }
    });
  }

  it('src/library is the one module of src/ that starts a simulator in-process', async () => {
    const files = (await sources('src')).filter((f) => !f.startsWith(join('src', 'library')));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      for (const spec of await specifiers(file)) {
        expect(/^(?!type:).*\/sim\/(app|simulator|domain\/demo)\.ts$/.test(spec), `${file} imports ${spec}`).toBe(false);
      }
    }
  });

  it('nothing in sim/ outside runtime reads the wall clock or Math.random', async () => {
    const files = (await sources('sim')).filter((f) => !f.startsWith(join('sim', 'runtime')));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const pattern of [/Date\.now\(/, /new Date\(\)/, /Math\.random\(/, /performance\.now\(/, /setTimeout\(/, /setInterval\(/]) {
        expect(pattern.test(text), `${file} uses ${pattern}`).toBe(false);
      }
    }
  });
});
