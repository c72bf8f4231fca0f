import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readCustomerFile, type FileIdentity } from './customer-file.ts';
import { checkDocument, type DocumentKind } from './document-check.ts';
import { CaseInputError } from './input-error.ts';

/**
 * What a customer sends, recognised by shape (spec 2.7, 2.8, 2.11, 2.12, 2.17):
 * the export { run, version, events }, the receipt, the billing answer, a
 * GET /v1/runs/{id} answer { run, events } and a quote answer { quote }. Every
 * field named ...Atomic anywhere in a document must be an integer string
 * (spec 2.1), and every field the kit reads has the type and form the spec
 * gives it (document-check.ts); a document that breaks that is refused naming
 * file and field.
 */
export type { DocumentKind };
export { CaseInputError };

export interface CaseDocument {
  kind: DocumentKind;
  file: string;
  body: Record<string, unknown>;
  /** The file it was read from, when it was read from one: no output is written over it. */
  identity?: FileIdentity;
}

const ATOMIC = /^(0|[1-9][0-9]*)$/;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The files of an evidence bundle that are customer documents (the ledger and scenario are support's own). */
export const BUNDLE_DOCUMENTS = ['export.json', 'receipt.json', 'billing.json', 'run.json', 'quote.json'];

/**
 * Recognised by which top-level fields are present, not by their types: a
 * field of the wrong type is then named by the document's check, rather than
 * the document being read as another kind that lacks it.
 */
function kindOf(body: Json): { kind: DocumentKind; body: Json } | null {
  const has = (...names: string[]) => names.every((name) => name in body);
  // The console's saved evidence keeps the export with the artifact id its header named: { artifactId, export }.
  if (isObject(body.export) && Object.keys(body).every((k) => k === 'export' || k === 'artifactId')) return kindOf(body.export);
  if (has('run', 'version', 'events')) return { kind: 'export', body };
  if (has('run', 'events')) return { kind: 'run', body };
  if (has('quote', 'settlement') && (has('payment') || has('receiptId'))) return { kind: 'receipt', body };
  if (isObject(body.quote) && 'contractHash' in body.quote) return { kind: 'quote', body };
  // The reconcile answer wraps the billing; a customer may paste either.
  const billing = isObject(body.billing) ? body.billing : body;
  if (['runId', 'status', 'settlement'].every((name) => name in billing)) return { kind: 'billing', body: billing };
  return null;
}

/** Every ...Atomic field (and every amount inside modelCost) is an integer string; the first that is not is named. */
function checkAmounts(value: unknown, file: string, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkAmounts(item, file, `${path}[${i}]`));
    return;
  }
  if (!isObject(value)) return;
  for (const [name, inner] of Object.entries(value)) {
    const at = path ? `${path}.${name}` : name;
    if (name.endsWith('Atomic') && inner !== null && !(typeof inner === 'string' && ATOMIC.test(inner))) {
      throw new CaseInputError(file, at, `is not an amount: spec 2.1 wants a string of integer atomic units (got ${JSON.stringify(inner)})`);
    }
    checkAmounts(inner, file, at);
  }
}

export function recogniseDocument(value: unknown, file: string): CaseDocument {
  if (!isObject(value)) throw new CaseInputError(file, '(document)', 'is not a JSON object, so it is none of: export, receipt, billing, run read, quote answer');
  const found = kindOf(value);
  if (!found) {
    throw new CaseInputError(file, '(document)', `is none of: export { run, version, events }, receipt { quote, feeSplit, settlement, payment }, billing { runId, status, settlement }, run read { run, events }, quote answer { quote } (top-level fields: ${Object.keys(value).join(', ') || 'none'})`);
  }
  checkAmounts(found.body, file, '');
  checkDocument(found.kind, found.body, file);
  return { kind: found.kind, file, body: found.body };
}

async function readDocument(file: string): Promise<CaseDocument> {
  const { value, identity } = await readCustomerFile(file);
  return { ...recogniseDocument(value, file), identity };
}

/** Reads FILE... where a directory stands for an evidence bundle (its customer documents); nothing is followed through a link. */
export async function readCaseDocuments(paths: string[]): Promise<CaseDocument[]> {
  const documents: CaseDocument[] = [];
  for (const path of paths) {
    const info = await lstat(path).catch(() => null);
    if (info?.isDirectory()) {
      const names = (await readdir(path)).filter((name) => BUNDLE_DOCUMENTS.includes(name)).sort();
      if (names.length === 0) throw new CaseInputError(path, '(directory)', `holds none of ${BUNDLE_DOCUMENTS.join(', ')}`);
      for (const name of names) documents.push(await readDocument(join(path, name)));
    } else {
      documents.push(await readDocument(path));
    }
  }
  if (documents.length === 0) throw new CaseInputError('(arguments)', 'FILE', 'is required: name at least one customer document');
  return documents;
}
