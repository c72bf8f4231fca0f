import type { Breach } from './audit.ts';

/**
 * Field by field: the customer's billing, settlement and receipt beside the
 * reproduction's. Ids the reproduction issues anew (run, quote, reservation,
 * contract hash, receipt) are mapped to the customer's before comparing, so
 * "equal" means equal in everything the contract decides. A difference
 * carries its reason: the rule the customer's figure breaks, or else that the
 * simulator, following the contract, computes another figure.
 */
type Json = Record<string, unknown>;

export interface FieldRow {
  field: string;
  customer: string;
  reproduction: string;
  equal: boolean;
  reason: string | null;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

/** Leaf fields as dotted paths; arrays compare whole. */
export function flatten(value: unknown, prefix: string, out: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (isObject(value)) {
    for (const [name, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${name}` : name, out);
  } else out.set(prefix, value);
  return out;
}

/** Replaces each whole-string reproduction id with the customer's (and the receipt id, which embeds the run id). */
export function idMapper(pairs: Array<[unknown, unknown]>): (value: unknown) => unknown {
  const map = new Map<string, string>();
  for (const [theirs, ours] of pairs) {
    if (typeof theirs !== 'string' || typeof ours !== 'string' || !theirs || !ours) continue;
    map.set(ours, theirs);
    map.set(`rcpt_${ours.replace(/-/g, '')}`, `rcpt_${theirs.replace(/-/g, '')}`);
  }
  const mapValue = (value: unknown): unknown => {
    if (typeof value === 'string') return map.get(value) ?? value;
    if (Array.isArray(value)) return value.map(mapValue);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapValue(v)]));
    return value;
  };
  return mapValue;
}

export interface Side {
  billing: Json | null;
  receipt: Json | null;
}

/**
 * Compares what the customer sent. A document the customer did not send is
 * not compared (there is nothing to disagree with); a field only one side has
 * is a difference.
 */
export function compareSides(customer: Side, reproduction: Side, mapIds: (v: unknown) => unknown, breaches: Breach[]): FieldRow[] {
  const rows: FieldRow[] = [];
  const add = (label: string, theirs: unknown, ours: unknown) => {
    const left = flatten(theirs, label);
    const right = flatten(mapIds(ours), label);
    for (const field of [...new Set([...left.keys(), ...right.keys()])]) {
      const a = left.get(field);
      const b = right.get(field);
      const equal = JSON.stringify(a) === JSON.stringify(b);
      rows.push({ field, customer: show(a), reproduction: show(b), equal, reason: equal ? null : reasonFor(field, breaches) });
    }
  };
  if (customer.billing) {
    const { settlement: theirs, ...billing } = customer.billing;
    const { settlement: ours, ...reproduced } = reproduction.billing ?? {};
    add('billing', billing, reproduction.billing ? reproduced : undefined);
    add('settlement', theirs, ours);
  }
  if (customer.receipt) add('receipt', customer.receipt, reproduction.receipt ?? undefined);
  return rows;
}

function reasonFor(field: string, breaches: Breach[]): string {
  // A receipt repeats the settlement: its settlement fields break the same rules.
  const base = field.replace(/^receipt\./, '');
  const breach = breaches.find((b) => b.field === base || (base.startsWith('settlement.') && b.field === 'settlement.chargedAtomic' && base === b.field));
  if (breach) return `the customer's figure breaks ${breach.cite}: ${breach.detail}`;
  const anyBreach = breaches[0];
  if (anyBreach && /Atomic$/.test(field)) return `follows from ${anyBreach.cite}: ${anyBreach.detail}`;
  return 'the reproduction, following the contract on the same facts, gives another value (a fact in the documents may be missing or edited, or the service and the simulator differ)';
}
