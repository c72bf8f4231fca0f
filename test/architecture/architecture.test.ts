import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { appliesTo, BOUNDARIES, FACE_BOUNDARIES, ROOMS, violations } from './boundaries.ts';
import { faceExports, namesTakenFrom } from './face-names.ts';
import { importCycles, importGraph, importsOfText, resolveRelative, sourceFiles, type ImportEdge } from './import-graph.ts';

/**
 * The one architecture test: every boundary of the table in ./boundaries.ts
 * over every import of src/ and sim/ (type imports, re-exports and dynamic
 * import() included), no import cycle, and no wall clock or Math.random in
 * sim/ outside sim/runtime.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let files: string[] = [];
let edges: ImportEdge[] = [];

beforeAll(async () => {
  files = await sourceFiles(ROOT, ['src', 'sim']);
  edges = await importGraph(ROOT, files);
});

describe('the import reader', () => {
  it('sees every form of import, type-only ones marked', () => {
    const text = [
      "import a from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, type D } from './c.ts';",
      "import { type E, f } from './e.ts';",
      "import './side-effect.ts';",
      "export { g } from './g.ts';",
      "export type { H } from './h.ts';",
      "export * from './star.ts';",
      "const later = await import('./dynamic.ts');",
      "let t: import('./type-position.ts').T;",
      "// import x from './in-a-comment.ts';",
      "const s = \"import y from './in-a-string.ts'\";",
    ].join('\n');
    expect(importsOfText('probe.ts', text)).toEqual([
      { specifier: './a.ts', kind: 'runtime' },
      { specifier: './b.ts', kind: 'type' },
      { specifier: './c.ts', kind: 'type' },
      { specifier: './e.ts', kind: 'runtime' },
      { specifier: './side-effect.ts', kind: 'runtime' },
      { specifier: './g.ts', kind: 'runtime' },
      { specifier: './h.ts', kind: 'type' },
      { specifier: './star.ts', kind: 'runtime' },
      { specifier: './dynamic.ts', kind: 'runtime' },
      { specifier: './type-position.ts', kind: 'type' },
    ]);
  });

  it('reads the whole tree, resolving relative imports to repository paths', () => {
    expect(files.length).toBeGreaterThan(100);
    const resolved = edges.filter((e) => !e.isPackage && !e.isBuiltin);
    expect(resolved.length).toBeGreaterThan(300);
    // A resolved import names a file that is there: a typo in a path would make a rule blind to it.
    const unresolved = resolved.filter((e) => !files.includes(e.target) && !e.target.startsWith('fixtures/') && e.target !== 'docs/decisions.json');
    expect(unresolved.map((e) => `${e.from} → ${e.specifier}`)).toEqual([]);
  });
});

describe('boundaries', () => {
  for (const boundary of BOUNDARIES) {
    it(boundary.name, () => {
      // A row that matches no file guards nothing: a moved folder must move its row too.
      expect(files.some((f) => appliesTo(boundary, f)), `no file under ${boundary.files.join(', ')}`).toBe(true);
      expect(violations(boundary, edges)).toEqual([]);
    });
  }
});

describe('reach', () => {
  /** Every file the given files reach through run-time imports, each with the path that reached it. */
  const reachFrom = (starts: string[]) => {
    const via = new Map<string, string>(starts.map((f) => [f, f]));
    const queue = [...starts];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const e of edges) {
        if (e.from !== file || e.kind !== 'runtime' || e.isPackage || e.isBuiltin || via.has(e.target)) continue;
        via.set(e.target, `${via.get(file)} → ${e.target}`);
        queue.push(e.target);
      }
    }
    return via;
  };

  it('nothing the console runs reaches sim/ or an in-process simulator, however many imports away', () => {
    const reached = reachFrom(files.filter((f) => f.startsWith('src/tui/')));
    // The walk follows imports out of src/tui: it reaches the client and the case kit.
    expect([...reached.keys()].some((f) => f.startsWith('src/case/'))).toBe(true);
    const bad = [...reached].filter(([f]) => f.startsWith('sim/') || f.startsWith('src/library/')).map(([, path]) => path);
    expect(bad).toEqual([]);
  });
});

describe('faces', () => {
  it("outside sim/domain, each part of the domain is reached through its one face (its index.ts)", () => {
    const part = /^sim\/domain\/[a-z-]+\/(?!index\.ts$)/;
    const through = edges.filter((e) => !e.from.startsWith('sim/domain/') && part.test(e.target));
    expect(edges.some((e) => !e.from.startsWith('sim/domain/') && /^sim\/domain\/[a-z-]+\/index\.ts$/.test(e.target))).toBe(true);
    expect(through.map((e) => `${e.from} → ${e.specifier}`)).toEqual([]);
  });

  it('each room whose face hides it from the rest of sim/domain too has its face', () => {
    for (const room of ROOMS) expect(files, room).toContain(`${room}/index.ts`);
  });

  it("the face rows refuse each reach past a room's face, and nothing else", () => {
    const edge = (from: string, target: string, kind: ImportEdge['kind']): ImportEdge => ({ from, specifier: target, target, kind, isBuiltin: false, isPackage: false });
    const cases: Array<[string, ImportEdge, boolean]> = [
      ['code behind the face, from another part', edge('sim/domain/runs/settlement.ts', 'sim/domain/ledger/ledger.ts', 'runtime'), true],
      ['a type behind the face that is not a stored shape', edge('sim/domain/chains/monitors-service.ts', 'sim/domain/limits/service.ts', 'type'), true],
      ['a value of records.ts (not a type)', edge('sim/domain/catalog/catalog.ts', 'sim/domain/keys/records.ts', 'runtime'), true],
      ['behind the face, from outside sim/domain', edge('sim/http/plugins/auth.ts', 'sim/domain/request-log/telemetry.ts', 'type'), true],
      ['behind the face, from the domain root', edge('sim/domain/services.ts', 'sim/domain/quotes/service.ts', 'type'), true],
      ['the face', edge('sim/domain/runs/settlement.ts', 'sim/domain/ledger/index.ts', 'runtime'), false],
      ['a stored shape as a type', edge('sim/domain/collections.ts', 'sim/domain/quotes/records.ts', 'type'), false],
      ["a stored shape as a type, from a room that keeps them in another file", edge('sim/domain/keys/records.ts', 'sim/domain/catalog/catalog-types.ts', 'type'), false],
      ['a value of that file (not a type)', edge('sim/domain/keys/keys.ts', 'sim/domain/catalog/catalog-types.ts', 'runtime'), true],
      ['inside the room', edge('sim/domain/ledger/accounts.ts', 'sim/domain/ledger/ledger.ts', 'runtime'), false],
      ['a part without a face row', edge('sim/domain/runs/service.ts', 'sim/domain/archive/archive.ts', 'runtime'), false],
      ["a folder whose name begins with a room's", edge('sim/domain/runs/service.ts', 'sim/domain/keys-archive/keys.ts', 'runtime'), false],
    ];
    const verdicts = cases.map(([what, e]) => [what, FACE_BOUNDARIES.some((b) => violations(b, [e]).length > 0)]);
    expect(verdicts).toEqual(cases.map(([what, , refused]) => [what, refused]));
  });

  it('the face reader sees names, export * and every way of taking a name', () => {
    expect(faceExports('index.ts', "export * from './a.ts';\nexport { b, type C as D } from './b.ts';\nexport type { E } from './e.ts';")).toEqual({ names: ['b', 'D', 'E'], stars: ['./a.ts'] });
    const text = [
      "import { b as local, type D } from './face.ts';",
      "export type { E } from './face.ts';",
      "let t: import('./face.ts').F.G;",
      "import { H } from './other.ts';",
    ].join('\n');
    expect(namesTakenFrom('user.ts', text, 'face.ts', (s) => s.slice(2))).toEqual(['b', 'D', 'E', 'F']);
  });

  it("a room's face names what code outside the room takes from it: no export *, no name nothing outside takes", async () => {
    const users = await sourceFiles(ROOT, ['src', 'sim', 'fixtures', 'test', 'bench', 'scripts', 'examples']);
    const untaken: string[] = [];
    for (const room of ROOMS) {
      const face = `${room}/index.ts`;
      const { names, stars } = faceExports(face, await readFile(`${ROOT}${face}`, 'utf8'));
      expect(stars, face).toEqual([]);
      const taken = new Set<string>();
      for (const file of users.filter((f) => !f.startsWith(`${room}/`))) {
        const text = await readFile(`${ROOT}${file}`, 'utf8');
        if (!text.includes(room.slice(room.lastIndexOf('/') + 1))) continue;
        for (const name of namesTakenFrom(file, text, face, (s) => (s.startsWith('.') ? resolveRelative(ROOT, file, s) : s))) taken.add(name);
      }
      untaken.push(...names.filter((name) => !taken.has(name) && !taken.has('*')).map((name) => `${face}: ${name}`));
    }
    expect(untaken).toEqual([]);
  });
});

describe('cycles', () => {
  it('no import cycle anywhere in src/ and sim/ (type imports included)', () => {
    const described = importCycles(edges).map(({ path, files: among }) => `${path.join(' → ')}${among.length > path.length - 1 ? ` (one of the cycles among ${among.join(', ')})` : ''}`);
    expect(described).toEqual([]);
  });

  it('the cycle finder reports a cycle as its path', () => {
    const edge = (from: string, target: string): ImportEdge => ({ from, specifier: target, target, kind: 'type', isBuiltin: false, isPackage: false });
    const found = importCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts'), edge('d.ts', 'e.ts')]);
    expect(found).toEqual([{ path: ['a.ts', 'b.ts', 'c.ts', 'a.ts'], files: ['a.ts', 'b.ts', 'c.ts'] }]);
  });
});

describe('dependencies', () => {
  const RUN_AS_PROGRAM: Record<string, string> = { jest: 'test/library/examples.test.ts' };
  /**
   * Declared only so that npm dedupes a dependency's dependency to a version that
   * runs on Node 20, in a consumer's install too (an override does not reach it):
   * the name of the dependency whose range it satisfies.
   */
  const HELD_FOR_CONSUMERS: Record<string, string> = { 'light-my-request': 'fastify' };
  /** The package a specifier names: `@scope/name` or `name`, without a subpath. */
  const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const usedBy = async (dirs: string[]) => {
    const users = await importGraph(ROOT, [...(await sourceFiles(ROOT, dirs, true)), ...(dirs.includes('test') ? ['vitest.config.ts'] : [])]);
    return new Set(users.filter((e) => e.isPackage).map((e) => packageOf(e.target)));
  };

  it('every dependency is imported by the program (src/, sim/, bin/), every devDependency by tests, bench or scripts', async () => {
    const manifest = JSON.parse(await readFile(`${ROOT}package.json`, 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const program = await usedBy(['src', 'sim', 'bin']);
    const tooling = await usedBy(['test', 'bench', 'scripts', 'examples']);
    // A runner that a test starts as a program is used without being imported: the test names its bin.
    for (const [name, runBy] of Object.entries(RUN_AS_PROGRAM)) {
      if ((await readFile(`${ROOT}${runBy}`, 'utf8')).includes(`'${name}/bin/`)) tooling.add(name);
    }
    const lock = JSON.parse(await readFile(`${ROOT}package-lock.json`, 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string> }> };
    for (const [name, by] of Object.entries(HELD_FOR_CONSUMERS)) {
      expect(lock.packages[`node_modules/${by}`].dependencies, `${by} depends on ${name}`).toHaveProperty(name);
      program.add(name);
    }
    expect(Object.keys(manifest.dependencies).filter((name) => !program.has(name))).toEqual([]);
    // Type packages are read by the compiler, never imported.
    expect(Object.keys(manifest.devDependencies).filter((name) => !name.startsWith('@types/') && !tooling.has(name) && !program.has(name))).toEqual([]);
  });
});

describe('size', () => {
  // Issue 16: small files named for what they hold; a file past this is two concepts.
  it('no source file in src/ or sim/ is over 300 lines', async () => {
    const long: string[] = [];
    for (const file of files) {
      const lines = (await readFile(`${ROOT}${file}`, 'utf8')).split('\n').length - 1;
      if (lines > 300) long.push(`${file}: ${lines} lines`);
    }
    expect(long).toEqual([]);
  });
});

describe('time and chance', () => {
  it('nothing in sim/ outside runtime reads the wall clock or Math.random', async () => {
    const simFiles = files.filter((f) => f.startsWith('sim/') && !f.startsWith('sim/runtime/'));
    expect(simFiles.length).toBeGreaterThan(20);
    for (const file of simFiles) {
      const text = await readFile(`${ROOT}${file}`, 'utf8');
      for (const pattern of [/Date\.now\(/, /new Date\(\)/, /Math\.random\(/, /performance\.now\(/, /setTimeout\(/, /setInterval\(/]) {
        expect(pattern.test(text), `${file} uses ${pattern}`).toBe(false);
      }
    }
  });
});

describe('Fastify, extended through its hooks', () => {
  it('nothing in sim/ or src/ replaces a route handler or patches a raw response', async () => {
    const patched: string[] = [];
    for (const file of files) {
      const text = await readFile(`${ROOT}${file}`, 'utf8');
      for (const pattern of [/\.handler\s*=[^=>]/, /\.raw\.(writeHead|write|end|setHeader)\s*=[^=>]/]) if (pattern.test(text)) patched.push(`${file}: ${pattern}`);
    }
    expect(patched).toEqual([]);
  });
});
