/** Amounts are integer strings of atomic units (spec 2.1); arithmetic is BigInt only. */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]*)$';
const amountRe = /^(0|[1-9][0-9]*)$/;

export type Atomic = string;

export function isAmount(value: unknown): value is Atomic {
  return typeof value === 'string' && amountRe.test(value);
}

export const big = (a: Atomic): bigint => BigInt(a);
export const str = (a: bigint): Atomic => {
  if (a < 0n) throw new Error(`negative amount ${a}`);
  return a.toString();
};
export const add = (...xs: Atomic[]): Atomic => str(xs.reduce((s, x) => s + BigInt(x), 0n));
export const sub = (a: Atomic, b: Atomic): Atomic => str(BigInt(a) - BigInt(b));
export const min = (a: Atomic, b: Atomic): Atomic => (BigInt(a) < BigInt(b) ? a : b);
export const gte = (a: Atomic, b: Atomic): boolean => BigInt(a) >= BigInt(b);
export const gt = (a: Atomic, b: Atomic): boolean => BigInt(a) > BigInt(b);
export const mul = (a: Atomic, n: number | bigint): Atomic => str(BigInt(a) * BigInt(n));
/** a × numerator / denominator, rounded down (the buyer never pays a rounded-up unit). */
export const mulDiv = (a: Atomic, numerator: number | bigint, denominator: number | bigint): Atomic =>
  str((BigInt(a) * BigInt(numerator)) / BigInt(denominator));
