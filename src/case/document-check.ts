import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { billingSchema, exportSchema, quoteAnswerSchema, receiptSchema, runReadSchema } from './document-schemas.ts';
import { CaseInputError } from './input-error.ts';

/**
 * Checks a recognised document's fields against the spec (document-schemas.ts)
 * before the kit reads any of them, and names the first field that breaks its
 * rule: "export.json: run.input.chain must be a string (got an object; spec 4.3)".
 * The document's depth is already bounded (customer-file.ts), so the
 * validator's walk stays shallow.
 */
export type DocumentKind = 'export' | 'receipt' | 'billing' | 'run' | 'quote';

// The schemas are module constants, checked against their meta-schema by test/case/document-schemas.test.ts,
// not in every run of the kit: measured 2026-11-28, compiling the five took 196–249 ms with that check, 116–126 without.
const ajv = new Ajv2020.default({ allErrors: false, strict: false, verbose: true, validateSchema: false });
addFormats.default(ajv, ['uuid', 'date-time']);

const SCHEMAS: Record<DocumentKind, Record<string, unknown>> = { export: exportSchema, run: runReadSchema, receipt: receiptSchema, billing: billingSchema, quote: quoteAnswerSchema };
const validators = new Map<DocumentKind, ValidateFunction>();

const PATTERNS: Record<string, string> = {
  '^(0|[1-9][0-9]*)$': 'is not an amount: spec 2.1 wants a string of integer atomic units',
  '^[a-f0-9]{64}$': 'is not a contract hash: 64 lowercase hex characters',
};
const FORMATS: Record<string, string> = { uuid: 'must be a UUID', 'date-time': 'must be an ISO 8601 date-time' };

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** The `$comment` nearest the failing rule: the part of the spec it comes from. */
function citeOf(root: unknown, schemaPath: string): string | null {
  let node = root as Record<string, unknown> | undefined;
  let cite: string | null = typeof node?.$comment === 'string' ? node.$comment : null;
  for (const step of schemaPath.replace(/^#\//, '').split('/')) {
    node = node?.[step.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown> | undefined;
    if (node && typeof node === 'object' && typeof node.$comment === 'string') cite = node.$comment;
  }
  return cite;
}

function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

function describe(error: ErrorObject, root: unknown): [string, string] {
  const field = fieldOf(error.instancePath);
  const cite = citeOf(root, error.schemaPath);
  const params = error.params as Record<string, unknown>;
  const got = `got ${kindOfValue(error.data)}`;
  const tail = (detail: string) => {
    const notes = [detail, cite].filter(Boolean);
    return notes.length ? ` (${notes.join('; ')})` : '';
  };
  switch (error.keyword) {
    case 'required':
      return [field ? `${field}.${String(params.missingProperty)}` : String(params.missingProperty), `is required${tail('')}`];
    case 'type': {
      const types = ([] as string[]).concat(params.type as string | string[]).map((t) => (t === 'null' ? 'null' : article(t)));
      return [field, `must be ${types.join(' or ')}${tail(got)}`];
    }
    case 'enum':
      return [field, `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}${tail(got)}`];
    case 'format':
      return [field, `${FORMATS[String(params.format)] ?? `must be a ${String(params.format)}`}${tail(got)}`];
    case 'pattern':
      return [field, `${PATTERNS[String(params.pattern)] ?? `must match ${String(params.pattern)}`}${tail(got)}`];
    default:
      return [field, `${error.message ?? 'is not allowed'}${tail('')}`];
  }
}

/** Throws a CaseInputError naming the file and the first field that breaks the spec; returns quietly when every field the kit reads is well-formed. */
export function checkDocument(kind: DocumentKind, body: unknown, file: string): void {
  let validate = validators.get(kind);
  if (!validate) {
    validate = ajv.compile(SCHEMAS[kind]);
    validators.set(kind, validate);
  }
  if (validate(body)) return;
  const [field, problem] = describe(validate.errors![0], SCHEMAS[kind]);
  throw new CaseInputError(file, field || '(document)', problem);
}
