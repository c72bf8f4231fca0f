import type { ImportEdge } from './import-graph.ts';

/**
 * The import boundaries, as data: the table of docs (/work/shared/design/architecture.md,
 * "Boundaries") plus the rules issue 16 adds. A merger adjusts a row, not code.
 *
 * A target is a node built-in, a package (a name, or a scope ending in '/'),
 * or a repository path (a folder or a file, less the paths in its `except`). `kind: 'runtime'` rows look only
 * at imports that stay in the emitted code; `'any'` rows at type imports too.
 * A row either lists what its files may import (`allow`: anything else fails)
 * or what they must not (`forbid`).
 */
export type Target = { builtin: true } | { package: string } | { path: string; except?: string[] };

export interface Boundary {
  name: string;
  files: string[];
  except?: string[];
  kind: 'any' | 'runtime';
  allow?: Target[];
  forbid?: Target[];
}

const builtin: Target = { builtin: true };
const pkg = (name: string): Target => ({ package: name });
const path = (p: string): Target => ({ path: p });
const HTTP_FRAMEWORK = [pkg('fastify'), pkg('@fastify/')];

/**
 * The parts of the domain whose face (index.ts) hides their files from every
 * other file, the rest of sim/domain included (issue 27), not only from outside
 * sim/domain (architecture.test.ts, "faces"). Past the face, other files may
 * name a part's stored shapes (records.ts; the catalog's catalog-types.ts) as
 * types: the store port's collections and parts that share a record do, and
 * through the face a type would import the part's code, which imports them
 * back (a cycle).
 */
export const ROOMS = [
  'sim/domain/ledger',
  'sim/domain/limits',
  'sim/domain/request-log',
  'sim/domain/quotes',
  'sim/domain/keys',
  'sim/domain/jobs',
  'sim/domain/catalog',
  'sim/domain/runs',
  'sim/domain/deliveries',
  'sim/domain/chains',
];
/** The file of a room's stored shapes where it is not records.ts: the catalog's listing records and vocabulary are catalog-types.ts. */
const SHAPES: Record<string, string> = { 'sim/domain/catalog': 'catalog-types.ts' };
/** A part's files behind its face: all but index.ts and the files named `open`. */
const behind = (part: string, ...open: string[]): Target => ({ path: part, except: ['index.ts', ...open].map((f) => `${part}/${f}`) });

export const FACE_BOUNDARIES: Boundary[] = ROOMS.flatMap((part): Boundary[] => {
  const shapes = SHAPES[part] ?? 'records.ts';
  return [
    { name: `outside ${part}, its code is reached through its face (index.ts) alone`, files: ['sim', 'src'], except: [part], kind: 'runtime', forbid: [behind(part)] },
    { name: `outside ${part}, nothing past its face but its stored shapes (${shapes}), as types`, files: ['sim', 'src'], except: [part], kind: 'any', forbid: [behind(part, shapes)] },
  ];
});
const CONSOLE_PACKAGES = [pkg('ink'), pkg('react'), pkg('zustand'), pkg('@alcalzone/ink-table')];

export const BOUNDARIES: Boundary[] = [
  // nanoid draws its tokens from the seeded generator's bytes (random.ts), never from its own entropy.
  { name: 'sim/runtime imports node built-ins only, and nanoid for tokens', files: ['sim/runtime'], kind: 'any', allow: [builtin, pkg('nanoid'), path('sim/runtime')] },
  {
    name: 'sim/domain is plain TypeScript: no fastify, lowdb, sim/store, sim/http, the Simulator or src/',
    files: ['sim/domain'],
    kind: 'any',
    forbid: [...HTTP_FRAMEWORK, pkg('lowdb'), path('sim/store'), path('sim/http'), path('sim/app.ts'), path('sim/simulator.ts'), path('src')],
  },
  { name: 'sim/domain takes only types from sim/runtime (clock, ids and generator arrive as arguments)', files: ['sim/domain'], kind: 'runtime', forbid: [path('sim/runtime')] },
  {
    name: 'sim/domain/ledger stands under quotes, runs and keys: it knows assets, the transaction and money, none of the parts that move money',
    files: ['sim/domain/ledger'],
    kind: 'any',
    allow: [path('sim/domain/ledger'), path('sim/domain/catalog'), path('sim/domain/context.ts'), path('sim/domain/errors.ts'), path('sim/domain/money.ts')],
  },
  { name: 'sim/domain/limits counts and refuses in memory: it imports nothing', files: ['sim/domain/limits'], kind: 'any', allow: [path('sim/domain/limits')] },
  { name: 'sim/domain/request-log lives in memory: only the time format of sim/domain/context.ts', files: ['sim/domain/request-log'], kind: 'any', allow: [path('sim/domain/request-log'), path('sim/domain/context.ts')] },
  ...FACE_BOUNDARIES,
  {
    name: 'sim/store has no HTTP, no fixtures, no src/',
    files: ['sim/store'],
    kind: 'any',
    forbid: [...HTTP_FRAMEWORK, path('sim/http'), path('sim/app.ts'), path('sim/simulator.ts'), path('fixtures'), path('src')],
  },
  { name: 'sim/store takes only types from sim/domain (it implements the domain port; no domain errors)', files: ['sim/store'], kind: 'runtime', forbid: [path('sim/domain')] },
  {
    name: 'sim/drill (chaos and the conduct report) rides on the simulator: no store, no Simulator, no routes of others',
    files: ['sim/drill'],
    kind: 'any',
    forbid: [pkg('lowdb'), path('sim/store'), path('sim/app.ts'), path('sim/simulator.ts'), path('sim/http/routes'), path('src')],
  },
  {
    name: 'only the wiring (sim/app.ts) and the tools that start a drill know sim/drill',
    files: ['sim', 'src'],
    except: ['sim/drill', 'sim/app.ts', 'src/cli', 'src/library'],
    kind: 'any',
    forbid: [path('sim/drill')],
  },
  { name: 'sim/ never imports src/', files: ['sim'], kind: 'any', forbid: [path('src')] },
  { name: 'src/client runs on fetch alone, its own modules only', files: ['src/client'], kind: 'runtime', allow: [path('src/client')] },
  { name: 'src/client takes types from sim/http/schemas at most', files: ['src/client'], kind: 'any', allow: [path('src/client'), path('sim/http/schemas')] },
  {
    name: "src/tui runs on ink, react, zustand, src/client and the case kit's plain modules",
    files: ['src/tui'],
    kind: 'runtime',
    allow: [path('src/tui'), path('src/client'), path('src/case'), ...CONSOLE_PACKAGES],
  },
  {
    name: "src/tui's types come from itself, src/client, and a scenario step's result",
    files: ['src/tui'],
    kind: 'any',
    allow: [path('src/tui'), path('src/client'), path('src/case'), path('src/scenario/result.ts'), ...CONSOLE_PACKAGES],
  },
  { name: 'only src/library and src/cli import sim/ at run time', files: ['src'], except: ['src/library', 'src/cli'], kind: 'runtime', forbid: [path('sim')] },
  { name: 'src/webhook and src/scenario implement the console ports without the console', files: ['src/webhook', 'src/scenario'], kind: 'runtime', forbid: [path('src/tui'), ...CONSOLE_PACKAGES] },
  {
    name: 'src/library alone starts a simulator in-process',
    files: ['src'],
    except: ['src/library'],
    kind: 'runtime',
    forbid: [path('sim/app.ts'), path('sim/simulator.ts'), path('sim/domain/demo.ts')],
  },
  { name: 'nothing imports src/cli: it wires the process', files: ['src', 'sim'], except: ['src/cli'], kind: 'any', forbid: [path('src/cli')] },
  {
    name: 'src/drift reaches the service over HTTP and its simulator through src/library: never sim/, the console or the CLI',
    files: ['src/drift'],
    kind: 'any',
    allow: [builtin, path('src/drift'), path('src/library'), path('src/client'), pkg('ipaddr.js'), path('docs/decisions.json')],
  },
];

const under = (file: string, prefix: string) => file === prefix || file.startsWith(`${prefix}/`);

function matches(target: Target, edge: ImportEdge): boolean {
  if ('builtin' in target) return edge.isBuiltin;
  if ('package' in target) {
    if (!edge.isPackage) return false;
    return target.package.endsWith('/') ? edge.target.startsWith(target.package) : edge.target === target.package || edge.target.startsWith(`${target.package}/`);
  }
  return !edge.isPackage && !edge.isBuiltin && under(edge.target, target.path) && !(target.except ?? []).some((p) => under(edge.target, p));
}

export const appliesTo = (boundary: Boundary, file: string) => boundary.files.some((p) => under(file, p)) && !(boundary.except ?? []).some((p) => under(file, p));

/** The imports that break the boundary, as `file → specifier (kind)`. */
export function violations(boundary: Boundary, edges: ImportEdge[]): string[] {
  return edges
    .filter((e) => appliesTo(boundary, e.from) && (boundary.kind === 'any' || e.kind === 'runtime'))
    .filter((e) => (boundary.allow ? !boundary.allow.some((t) => matches(t, e)) : (boundary.forbid ?? []).some((t) => matches(t, e))))
    .map((e) => `${e.from} → ${e.specifier} (${e.kind})`);
}
