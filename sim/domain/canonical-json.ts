import { createHash } from 'node:crypto';

/**
 * Canonical JSON in the manner of RFC 8785: object keys sorted by UTF-16 code
 * units, no whitespace, strings and numbers as JSON.stringify writes them.
 * Amounts are strings, so no floating-point number ever needs canonicalising.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON has no representation for non-finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
