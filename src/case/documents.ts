import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a customer sends, recognised by shape (spec 2.7, 2.8, 2.11, 2.12, 2.17):
 * the export { run, version, events }, the receipt, the billing answer, a
 * GET /v1/runs/{id} answer { run, events } and a quote answer { quote }. Every
 * field named ...Atomic anywhere in a document must be an integer string
 * (spec 2.1); a document that breaks that is refused naming file and field.
 */
export type DocumentKind = 'export' | 'receipt' | 'billing' | 'run' | 'quote';

export interface CaseDocument {
  kind: DocumentKind;
  file: string;
  body: Record<string, unknown>;
}

/** Bad input: names the file and the field, and the caller writes nothing. */
export class CaseInputError extends Error {
  constructor(readonly file: string, readonly field: string, problem: string) {
    super(`${file}: ${field} ${problem}`);
    this.name = 'CaseInputError';
  }
}

const ATOMIC = /^(0|[1-9][0-9]*)$/;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The files of an evidence bundle that are customer documents (the ledger and scenario are support's own). */
export const BUNDLE_DOCUMENTS = ['export.json', 'receipt.json', 'billing.json', 'run.json', 'quote.json'];

function kindOf(body: Json): { kind: DocumentKind; body: Json } | null {
  // The console's saved evidence keeps the export with the artifact id its header named: { artifactId, export }.
  if (isObject(body.export) && Object.keys(body).every((k) => k === 'export' || k === 'artifactId')) return kindOf(body.export);
  if (isObject(body.run) && isObject(body.version) && Array.isArray(body.events)) return { kind: 'export', body };
  if (isObject(body.run) && Array.isArray(body.events)) return { kind: 'run', body };
  if (isObject(body.quote) && isObject(body.settlement) && (isObject(body.payment) || 'receiptId' in body)) return { kind: 'receipt', body };
  if (isObject(body.quote) && typeof body.quote.contractHash === 'string') return { kind: 'quote', body };
  // The reconcile answer wraps the billing; a customer may paste either.
  const billing = isObject(body.billing) ? body.billing : body;
  if (typeof billing.runId === 'string' && typeof billing.status === 'string' && 'settlement' in billing) return { kind: 'billing', body: billing };
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
  return { kind: found.kind, file, body: found.body };
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CaseInputError(file, '(file)', `cannot be read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CaseInputError(file, '(file)', `is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads FILE... where a directory stands for an evidence bundle (its customer documents). */
export async function readCaseDocuments(paths: string[]): Promise<CaseDocument[]> {
  const documents: CaseDocument[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory()) {
      const names = (await readdir(path)).filter((name) => BUNDLE_DOCUMENTS.includes(name)).sort();
      if (names.length === 0) throw new CaseInputError(path, '(directory)', `holds none of ${BUNDLE_DOCUMENTS.join(', ')}`);
      for (const name of names) documents.push(recogniseDocument(await readJson(join(path, name)), join(path, name)));
    } else {
      documents.push(recogniseDocument(await readJson(path), path));
    }
  }
  if (documents.length === 0) throw new CaseInputError('(arguments)', 'FILE', 'is required: name at least one customer document');
  return documents;
}
