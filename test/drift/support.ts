import { startUnderstudy, type Understudy } from '../../src/library/index.ts';

export const ALL_SCOPES = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read', 'monitors:read', 'monitors:write'] as const;

/**
 * The service, played by a second simulator in the production environment
 * (real-time clock, rate limits on), with a key of its own on the demo EVM
 * account, which holds a deposit: an acceptance that got through would
 * reserve from it.
 */
export async function startStandIn(options: { scopes?: readonly string[] } = {}): Promise<{ standIn: Understudy; key: string; keyId: string; accountId: string }> {
  const standIn = await startUnderstudy({ env: 'production', clock: 'realtime', seed: 7 });
  const accountId = standIn.accounts.evm.id;
  const created = await standIn.control.createKey(accountId, {
    profile: 'local_custody',
    spendLimitAtomic: '500000000000000000',
    name: 'drift stand-in',
    scopes: [...(options.scopes ?? ALL_SCOPES)] as never,
    rateLimitPerMinute: 300,
  });
  return { standIn, key: created.secret, keyId: created.key.id, accountId };
}
