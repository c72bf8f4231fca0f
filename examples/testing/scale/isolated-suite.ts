import { expect, it } from 'vitest';
import { useUnderstudy } from '../vitest/understudy.ts';

/**
 * `count` tests against this file's own simulator, each changing its state
 * (a deposit of its own size, an account) and finding only its own change:
 * what a test leaves behind, reset() takes away before the next one.
 */
export function isolatedTests(name: string, count: number): void {
  const understudy = useUnderstudy({ limits: false });
  for (let n = 1; n <= count; n++) {
    it(`${name} #${n} sees only its own changes`, async () => {
      const { control, accounts } = understudy();
      const balance = await control.deposit(accounts.evm.id, { profile: 'sim', amountAtomic: String(n) });
      expect(BigInt(balance.availableAtomic)).toBe(1_000_000_000n + BigInt(n));
      await control.createAccount({ type: 'solana', label: `${name} #${n}` });
      expect((await control.accounts()).length).toBe(3);
    });
  }
}
