import type { CreateMonitorBody, Monitor, SimChainLog } from '../client/index.ts';

/**
 * Demo data for the monitors screen: a monitor the console can create in one
 * key, and a chain log that matches a monitor's rule, so an event can be
 * rehearsed end to end (rule matched → notification → signed delivery).
 */
export const DEMO_TOKEN = `0x${'a1'.repeat(20)}`;
const ALICE = `0x${'c3'.repeat(20)}`;
const BOB = `0x${'d4'.repeat(20)}`;

/** Spec 4.10: an erc20-transfer rule on base, one-block windows so a mined block is looked at at once. */
export function demoMonitorBody(idempotencyKey: string): CreateMonitorBody {
  return {
    name: 'Console demo: token transfers',
    chain: 'base',
    rules: [{ id: 'transfers', type: 'erc20-transfer', token: DEMO_TOKEN }],
    durationSeconds: 3600,
    tickBudget: 1000,
    rpcBudget: 10_000,
    idempotencyKey,
    windowBlocks: 1,
  };
}

/** The first event name a rule listens for (spec 4.11), as monitor-rules names them. */
const FIRST_EVENT: Record<string, string> = {
  'erc20-transfer': 'Transfer',
  'erc20-approval': 'Approval',
  'wallet-token-flow': 'Transfer',
  'pool-activity': 'Swap',
  'authority-change': 'Upgraded',
  'governance-change': 'ProposalCreated',
  'control-change': 'RoleGranted',
};

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A log that the rule matches (spec 4.11 semantics), or null for a rule the console cannot read. */
export function matchingLog(rule: Record<string, unknown>): SimChainLog | null {
  const type = str(rule.type) ?? '';
  const events = Array.isArray(rule.events) ? rule.events.map(String) : [];
  const event = events[0] ?? FIRST_EVENT[type];
  if (!event) return null;
  switch (type) {
    case 'erc20-transfer': {
      const token = str(rule.token);
      return token ? { address: token, event, args: { from: str(rule.from) ?? ALICE, to: str(rule.to) ?? BOB, value: str(rule.minimumAtomic) ?? '1000' } } : null;
    }
    case 'erc20-approval': {
      const token = str(rule.token);
      const owner = str(rule.owner);
      return token && owner ? { address: token, event, args: { owner, spender: str(rule.spender) ?? BOB, value: '1000' } } : null;
    }
    case 'wallet-token-flow': {
      const token = Array.isArray(rule.tokens) ? str(rule.tokens[0]) : undefined;
      const wallet = str(rule.wallet);
      if (!token || !wallet) return null;
      return { address: token, event, args: rule.direction === 'out' ? { from: wallet, to: BOB, value: '1000' } : { from: ALICE, to: wallet, value: '1000' } };
    }
    case 'pool-activity': {
      const pool = str(rule.pool);
      return pool ? { address: pool, event, args: { amount0: str(rule.minimumAmount0Atomic) ?? '1000', amount1: str(rule.minimumAmount1Atomic) ?? '1000' } } : null;
    }
    case 'authority-change':
    case 'governance-change':
    case 'control-change': {
      const contract = str(rule.contract);
      return contract ? { address: contract, event, args: {} } : null;
    }
    default:
      return null;
  }
}

/** The monitor's rules, when the answer carries them (an understudy extension of spec 2.13). */
export function rulesOf(monitor: Monitor): Array<Record<string, unknown>> {
  return Array.isArray(monitor.rules) ? (monitor.rules as Array<Record<string, unknown>>) : [];
}
