import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join, normalize, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * Every import of every source file, read with TypeScript's own parser: static
 * imports and re-exports (type-only ones marked), dynamic import(), and
 * import('x').T in type positions. Relative specifiers resolve to the
 * repository path of the file they name, so rules speak of paths, not of
 * how many '../' a file happened to write.
 */
export type ImportKind = 'runtime' | 'type';

export interface ImportEdge {
  from: string;
  specifier: string;
  /** A repository path (`sim/store/file-store.ts`) for relative imports, else the specifier itself. */
  target: string;
  kind: ImportKind;
  /** A node built-in (`node:crypto`). */
  isBuiltin: boolean;
  /** A package from node_modules (neither relative nor built in). */
  isPackage: boolean;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const SCRIPT = /\.(ts|tsx|mts|js|mjs)$/;

/** `withScripts` adds plain JavaScript (bin/ is JavaScript). */
export async function sourceFiles(root: string, dirs: string[], withScripts = false): Promise<string[]> {
  const pattern = withScripts ? SCRIPT : SOURCE;
  const files: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(join(root, dir))) continue;
    const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
    for (const e of entries) if (e.isFile() && pattern.test(e.name) && !e.name.endsWith('.d.ts')) files.push(toRepoPath(relative(root, join(e.parentPath, e.name))));
  }
  return files.sort();
}

const toRepoPath = (path: string) => normalize(path).split(sep).join('/');

/** `import type`, `import { type A, type B }` (nothing left at run time), `export type ... from`. */
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  // Without verbatimModuleSyntax (tsconfig), an import whose every name is a type is dropped from the emitted code.
  return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** The specifiers of one file's text, with their kind. */
export function importsOfText(fileName: string, text: string): Array<{ specifier: string; kind: ImportKind }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : fileName.endsWith('.js') || fileName.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: Array<{ specifier: string; kind: ImportKind }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, kind: isTypeOnlyImport(node) ? 'type' : 'runtime' });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, kind: isTypeOnlyExport(node) ? 'type' : 'runtime' });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push({ specifier: node.moduleReference.expression.text, kind: node.isTypeOnly ? 'type' : 'runtime' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      // A computed import() cannot be checked: it is reported as such, never skipped.
      found.push({ specifier: argument && ts.isStringLiteralLike(argument) ? argument.text : '<computed import()>', kind: 'runtime' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, kind: 'type' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repository path a relative specifier names (`.js` written for a `.ts` file included). */
export function resolveRelative(root: string, from: string, specifier: string): string {
  const base = toRepoPath(join(dirname(from), specifier));
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.jsx$/, '.tsx'), `${base}.ts`, `${base}.tsx`, `${base}/index.ts`];
  return candidates.find((c) => existsSync(join(root, c)) && SOURCE.test(c)) ?? candidates.find((c) => existsSync(join(root, c))) ?? base;
}

export async function importGraph(root: string, files: string[]): Promise<ImportEdge[]> {
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const { specifier, kind } of importsOfText(from, await readFile(join(root, from), 'utf8'))) {
      const isRelative = specifier.startsWith('.');
      edges.push({
        from,
        specifier,
        target: isRelative ? resolveRelative(root, from, specifier) : specifier,
        kind,
        isBuiltin: !isRelative && isBuiltin(specifier),
        isPackage: !isRelative && !isBuiltin(specifier),
      });
    }
  }
  return edges;
}

/**
 * Every cycle among the files (Tarjan's strongly connected components), each
 * reported as one concrete path a → b → … → a through its component.
 */
export interface ImportCycle {
  /** One concrete cycle, first file repeated at the end. */
  path: string[];
  /** Every file of its strongly connected component (the path may pass only some of them). */
  files: string[];
}

export function importCycles(edges: ImportEdge[]): ImportCycle[] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!e.isPackage && !e.isBuiltin && e.target !== e.from) next.set(e.from, [...(next.get(e.from) ?? []), e.target]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((component) => ({ path: cyclePath(component, next), files: [...component].sort() }));
}

/** A shortest way from the component's first file back to itself, staying inside the component. */
function cyclePath(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
