import ts from 'typescript';

/**
 * The names a face (a part's index.ts) gives out, and the names other files
 * take from it, read with TypeScript's parser: what keeps a face to what the
 * code outside its part uses.
 */
export interface FaceExports {
  names: string[];
  /** `export * from`: a face that names nothing and hides nothing. */
  stars: string[];
}

const parse = (fileName: string, text: string) => ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

export function faceExports(fileName: string, text: string): FaceExports {
  const names: string[] = [];
  const stars: string[] = [];
  for (const node of parse(fileName, text).statements) {
    if (!ts.isExportDeclaration(node)) continue;
    const from = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : '';
    if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) stars.push(from);
    else for (const e of node.exportClause.elements) names.push(e.name.text);
  }
  return { names, stars };
}

/**
 * The names `fileName` takes from the modules `resolve` maps to `target`:
 * imports and re-exports by name (the name as the target spells it), and
 * import('…').Name in type positions. A namespace import takes every name: '*'.
 */
export function namesTakenFrom(fileName: string, text: string, target: string, resolve: (specifier: string) => string): string[] {
  const taken: string[] = [];
  const names = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) => elements.map((e) => (e.propertyName ?? e.name).text);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && resolve(node.moduleSpecifier.text) === target) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) taken.push('*');
      else if (bindings) taken.push(...names(bindings.elements));
      if (node.importClause?.name) taken.push('default');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && resolve(node.moduleSpecifier.text) === target) {
      taken.push(...(node.exportClause && ts.isNamedExports(node.exportClause) ? names(node.exportClause.elements) : ['*']));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal) && resolve(node.argument.literal.text) === target) {
      taken.push(node.qualifier ? leftmost(node.qualifier) : '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(fileName, text));
  return taken;
}

/** `A` of `A.B.C`: the name a qualified type takes from its module. */
const leftmost = (name: ts.EntityName): string => (ts.isIdentifier(name) ? name.text : leftmost(name.left));
