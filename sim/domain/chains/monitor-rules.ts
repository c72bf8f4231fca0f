import type { ChainLog, MonitorRule } from './records.ts';

/** Matching a log against a rule object of spec 4.11. Addresses compare case-insensitively. */
export const RULE_EVENTS: Record<MonitorRule['type'], string[]> = {
  'erc20-transfer': ['Transfer'],
  'erc20-approval': ['Approval'],
  'authority-change': ['Upgraded', 'AdminChanged', 'BeaconUpgraded', 'OwnershipTransferred'],
  'wallet-token-flow': ['Transfer'],
  'pool-activity': ['Swap', 'Mint', 'Burn'],
  'governance-change': [
    'ProposalCreated', 'ProposalQueued', 'ProposalExecuted', 'ProposalCanceled', 'CallScheduled', 'CallExecuted', 'Cancelled',
    'MinDelayChange', 'QueueTransaction', 'ExecuteTransaction', 'CancelTransaction', 'NewDelay', 'NewAdmin', 'NewPendingAdmin',
  ],
  'control-change': ['RoleGranted', 'RoleRevoked', 'RoleAdminChanged', 'Paused', 'Unpaused'],
};

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** |value| ≥ minimum, for integer strings that may be negative (pool amounts). */
function atLeast(value: string | undefined, minimum: unknown): boolean {
  if (typeof minimum !== 'string') return true;
  if (value === undefined || !/^-?[0-9]+$/.test(value)) return false;
  const v = BigInt(value);
  return (v < 0n ? -v : v) >= BigInt(minimum);
}

export function ruleMatches(rule: MonitorRule, log: ChainLog): boolean {
  const events = (rule.events as string[] | undefined) ?? RULE_EVENTS[rule.type];
  if (!events.includes(log.event)) return false;
  const a = log.args;
  switch (rule.type) {
    case 'erc20-transfer':
      return same(log.address, rule.token) && (rule.from === undefined || same(a.from, rule.from)) && (rule.to === undefined || same(a.to, rule.to)) && atLeast(a.value, rule.minimumAtomic);
    case 'erc20-approval':
      return same(log.address, rule.token) && same(a.owner, rule.owner) && (rule.spender === undefined || same(a.spender, rule.spender));
    case 'wallet-token-flow':
      return (rule.tokens as string[]).some((t) => same(t, log.address)) && same(rule.direction === 'in' ? a.to : a.from, rule.wallet);
    case 'pool-activity':
      return same(log.address, rule.pool) && atLeast(a.amount0, rule.minimumAmount0Atomic) && atLeast(a.amount1, rule.minimumAmount1Atomic);
    case 'authority-change':
    case 'governance-change':
    case 'control-change':
      return same(log.address, rule.contract);
  }
}

/**
 * The log addresses a monitor's rules can match (lower case), or null when a
 * rule names none (every rule of spec 4.11 names its contract, token or pool;
 * null keeps a rule without one matching anywhere). A window holding logs only
 * at other addresses is empty to the monitor, as an eth_getLogs filtered on
 * these addresses would find it.
 */
export function watchedAddresses(rules: readonly MonitorRule[]): string[] | null {
  const out = new Set<string>();
  for (const rule of rules) {
    const named = [rule.token, rule.pool, rule.contract, ...((rule.tokens as unknown[] | undefined) ?? [])].filter((a): a is string => typeof a === 'string');
    if (named.length === 0) return null;
    for (const address of named) out.add(address.toLowerCase());
  }
  return [...out];
}

export function explain(rule: MonitorRule, log: ChainLog): string {
  const args = Object.entries(log.args).map(([k, v]) => `${k}=${v}`).join(', ');
  return `Rule ${rule.id} (${rule.type}) matched ${log.event} on ${log.address} in block ${log.blockNumber}${args ? ` (${args})` : ''}.`;
}
