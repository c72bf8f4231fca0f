import { describe, expect, it } from 'vitest';
import { filledCells, formatAtomic, formatProfileAmount, percentOf } from '../../src/tui/amount.ts';

describe('amounts', () => {
  it('format atomic units with the decimals of each asset', () => {
    expect(formatProfileAmount('24700000000000000', 'local_custody')).toBe('0.0247 ETH');
    expect(formatProfileAmount('1', 'local_custody')).toBe('0.000000000000000001 ETH');
    expect(formatProfileAmount('10000000000', 'solana_sol')).toBe('10 SOL');
    expect(formatProfileAmount('4600000', 'solana_usdc')).toBe('4.6 USDC');
    expect(formatProfileAmount('1000000000', 'sim')).toBe('1,000 SIM');
    expect(formatProfileAmount('5', 'unknown_profile')).toBe('5 atomic');
  });

  it('keep every digit of amounts beyond float precision', () => {
    // 2^64 + 1 wei: a float would round the last digit away.
    expect(formatAtomic('18446744073709551617', 18)).toBe('18.446744073709551617');
    expect(formatAtomic('123456789012345678901234567890', 18)).toBe('123,456,789,012.34567890123456789');
    expect(formatAtomic('0', 9)).toBe('0');
    expect(formatAtomic('not a number', 6)).toBe('not a number');
  });

  it('size a spend bar with integer math, clamped to the width', () => {
    expect(filledCells('0', '1000000000000000000', 24)).toBe(0);
    expect(filledCells('500000000000000000', '1000000000000000000', 24)).toBe(12);
    expect(filledCells('999999999999999999', '1000000000000000000', 24)).toBe(23);
    expect(filledCells('3000000000000000000', '1000000000000000000', 24)).toBe(24);
    expect(filledCells('0', '0', 10)).toBe(0);
    expect(percentOf('247', '1000')).toBe(24);
  });
});
