/**
 * Atomic amounts (spec 2.1: integer strings) shown in whole units. All math is
 * on strings and BigInt: 18-decimal ETH amounts do not survive a float.
 */

export interface AssetDisplay {
  symbol: string;
  decimals: number;
}

/** Spec 2.2 and the asset table of part 1; SIM is the local rehearsal credit. */
export const ASSET_DISPLAY: Record<string, AssetDisplay> = {
  solana_sol: { symbol: 'SOL', decimals: 9 },
  solana_usdc: { symbol: 'USDC', decimals: 6 },
  local_custody: { symbol: 'ETH', decimals: 18 },
  sim: { symbol: 'SIM', decimals: 6 },
};

const ATOMIC = /^(0|[1-9][0-9]*)$/;

/** '24700000000000000' with 18 decimals → '0.0247'; trailing zeros dropped, thousands grouped. */
export function formatAtomic(atomic: string, decimals: number, maxFractionDigits = decimals): string {
  if (!ATOMIC.test(atomic)) return atomic;
  const padded = atomic.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals, padded.length - decimals + maxFractionDigits).replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/** Whether an amount can be written in units: an amount string of a known asset. */
export const hasUnits = (atomic: unknown, profile: string | null | undefined): atomic is string =>
  typeof atomic === 'string' && ATOMIC.test(atomic) && profile !== null && profile !== undefined && profile in ASSET_DISPLAY;

/**
 * The one way the console writes an amount: whole units with the asset's
 * symbol; with `exact`, also the atomic string the API answered (spec 2.1),
 * which is what a support person compares with curl. An unknown profile (or
 * a value that is not an amount string) shows the raw value, which is exact.
 */
export function formatProfileAmount(atomic: string, profile: string | null | undefined, options: { exact?: boolean } = {}): string {
  const display = profile ? ASSET_DISPLAY[profile] : undefined;
  if (!ATOMIC.test(atomic)) return atomic;
  if (!display) return `${atomic} atomic`;
  const units = `${formatAtomic(atomic, display.decimals)} ${display.symbol}`;
  return options.exact ? `${units} (${atomic} atomic)` : units;
}

/** How many of `width` cells `used` fills out of `limit`, rounded down and clamped. */
export function filledCells(used: string, limit: string, width: number): number {
  if (!ATOMIC.test(used) || !ATOMIC.test(limit)) return 0;
  const limitValue = BigInt(limit);
  if (limitValue === 0n) return used === '0' ? 0 : width;
  const cells = (BigInt(used) * BigInt(width)) / limitValue;
  return Number(cells > BigInt(width) ? BigInt(width) : cells);
}

/** Whole percent of `limit` that `used` is, rounded down. */
export function percentOf(used: string, limit: string): number {
  return filledCells(used, limit, 100);
}

/**
 * A bar's cells for `part` of `whole`: at least one for any non-zero part, so
 * a small charge is still seen, and a part beyond the whole fills the bar and
 * is marked as off the scale rather than drawn as if it fitted.
 */
export function barCells(part: string, whole: string, width: number): { filled: number; isOffScale: boolean } {
  const isOffScale = ATOMIC.test(part) && ATOMIC.test(whole) && BigInt(part) > BigInt(whole);
  const filled = Math.max(filledCells(part, whole, width), part !== '0' && whole !== '0' ? 1 : 0);
  return { filled: Math.min(width, filled), isOffScale };
}
