/**
 * An answer's shape: every path in the JSON body (`quote.asset.decimals`,
 * `agents[].offers[].profile`; array items share one path) with the JSON
 * types, the forms and the values seen there. Drift compares shapes, not
 * values: two catalogs hold other listings, two quotes other ids.
 */
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** How a string is written (spec 2.1): ids, times, hashes and amounts are compared by form, not value. */
export type Form = 'uuid' | 'date-time' | 'hex64' | 'amount' | 'text';

export interface PathShape {
  types: Set<JsonType>;
  forms: Set<Form>;
  /** The strings seen (for enum fields); capped so a long list of names stays small. */
  values: Set<string>;
  /** For arrays: how many items were seen there in all. */
  items: number;
}

export type Shape = Map<string, PathShape>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const HEX64 = /^[a-f0-9]{64}$/;
const AMOUNT = /^(0|[1-9][0-9]*)$/;
const MAX_VALUES = 50;

export function formOf(value: string): Form {
  if (UUID.test(value)) return 'uuid';
  if (DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) return 'date-time';
  if (HEX64.test(value)) return 'hex64';
  if (AMOUNT.test(value)) return 'amount';
  return 'text';
}

export function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

export function shapeOf(body: unknown): Shape {
  const shape: Shape = new Map();
  visit(shape, '', body);
  return shape;
}

function visit(shape: Shape, path: string, value: unknown): void {
  let node = shape.get(path);
  if (!node) {
    node = { types: new Set(), forms: new Set(), values: new Set(), items: 0 };
    shape.set(path, node);
  }
  const type = typeOf(value);
  node.types.add(type);
  if (type === 'string') {
    node.forms.add(formOf(value as string));
    if (node.values.size < MAX_VALUES) node.values.add(value as string);
  } else if (type === 'array') {
    node.items += (value as unknown[]).length;
    for (const item of value as unknown[]) visit(shape, `${path}[]`, item);
  } else if (type === 'object') {
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) visit(shape, path === '' ? name : `${path}.${name}`, child);
  }
}

/** The path holding `path` (`a.b[]` → `a.b`, `a.b` → `a`, `a` → ''). */
export function parentOf(path: string): string {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot === -1 ? '' : path.slice(0, dot);
}

/** The last name of a path (`quote.contractHash` → `contractHash`). */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}
