import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { ALICE, BOB, TOKEN, ethKey, monitorBody, transferRule } from './support.ts';

/** Spec 4.10–4.12: every bound of the creation body, rule objects and triggers. */

let sim: TestSimulator;
let key: string;
beforeAll(async () => {
  sim = await startSimulator();
  key = ethKey(sim).key;
});
afterAll(async () => {
  await sim.destroy();
});

async function post(body: Record<string, unknown>) {
  return sim.json({ method: 'POST', url: '/v1/monitors', key, body });
}

/** Refused with 400 invalid_input naming `field`; nothing created. */
async function refused(body: Record<string, unknown>, field?: string) {
  const before = sim.sim.deps.store.count('monitors');
  const response = await post(body);
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('invalid_input');
  if (field) expect(response.body.error.message).toContain(field);
  expect(sim.sim.deps.store.count('monitors')).toBe(before);
  return response.body.error.message as string;
}

/** Accepted (201); the monitor is stopped at once so the five-active limit never interferes. */
async function accepted(body: Record<string, unknown>) {
  const response = await post(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const stop = await sim.json({ method: 'POST', url: `/v1/monitors/${response.body.monitor.id}/stop`, key });
  expect(stop.status).toBe(200);
  return response.body;
}

const without = (field: string) => {
  const body = monitorBody();
  delete body[field];
  return body;
};
const rules = (n: number) => Array.from({ length: n }, (_, i) => transferRule({ id: `rule-${i}` }));
const trigger = (extra: Record<string, unknown> = {}) => ({ id: 'check', onRule: 'transfers', action: 'token-authority-check', ...extra });
const triggers = (n: number) => Array.from({ length: n }, (_, i) => trigger({ id: `trigger-${i}` }));

describe('POST /v1/monitors body bounds (4.10)', () => {
  it.each([
    ['name', 0, 'name'],
    ['name', 101, 'name'],
  ])('%s of %i characters is refused', async (field, length, named) => {
    await refused(monitorBody({ [field]: 'n'.repeat(length) }), named);
  });

  it('name of 1 and of 100 characters is accepted', async () => {
    expect((await accepted(monitorBody({ name: 'n' }))).monitor.name).toBe('n');
    expect((await accepted(monitorBody({ name: 'n'.repeat(100) }))).monitor.name).toHaveLength(100);
  });

  it.each(['name', 'chain', 'rules', 'durationSeconds', 'tickBudget', 'rpcBudget', 'idempotencyKey'])('the required field %s is required', async (field) => {
    const message = await refused(without(field), field);
    expect(message).toMatch(/required/);
  });

  it.each(['solana', 'polygon', 'Base', ''])('chain %j is refused (ethereum, base, chainx only)', async (chain) => {
    await refused(monitorBody({ chain }), 'chain');
  });

  it.each(['ethereum', 'base', 'chainx'])('chain %s is accepted', async (chain) => {
    expect((await accepted(monitorBody({ chain }))).monitor.chain).toBe(chain);
  });

  it('rules: 0 and 9 are refused, 1 and 8 accepted', async () => {
    await refused(monitorBody({ rules: [] }), 'rules');
    await refused(monitorBody({ rules: rules(9) }), 'rules');
    expect((await accepted(monitorBody({ rules: rules(1) }))).monitor.rules).toHaveLength(1);
    expect((await accepted(monitorBody({ rules: rules(8) }))).monitor.rules).toHaveLength(8);
  });

  it.each([
    ['durationSeconds', 59],
    ['durationSeconds', 2_592_001],
    ['durationSeconds', 600.5],
    ['durationSeconds', '600'],
    ['tickBudget', 0],
    ['tickBudget', 10_001],
    ['rpcBudget', 9],
    ['rpcBudget', 100_001],
    ['windowBlocks', 0],
    ['windowBlocks', 2001],
    ['maximumLogs', 0],
    ['maximumLogs', 101],
  ])('%s = %j is refused', async (field, value) => {
    await refused(monitorBody({ [field]: value }), field);
  });

  it.each([
    ['durationSeconds', 60],
    ['durationSeconds', 2_592_000],
    ['tickBudget', 1],
    ['tickBudget', 10_000],
    ['rpcBudget', 10],
    ['rpcBudget', 100_000],
    ['windowBlocks', 1],
    ['windowBlocks', 2000],
    ['maximumLogs', 1],
    ['maximumLogs', 100],
  ])('%s = %j is accepted', async (field, value) => {
    const created = await accepted(monitorBody({ [field]: value }));
    if (field !== 'durationSeconds') expect(created.monitor[field]).toBe(value);
    else expect(Date.parse(created.monitor.endsAt) - Date.parse(created.monitor.createdAt)).toBe((value as number) * 1000);
  });

  it('windowBlocks defaults to 25 and maximumLogs to 50', async () => {
    const body = monitorBody();
    delete body.windowBlocks;
    const created = await accepted(body);
    expect(created.monitor.windowBlocks).toBe(25);
    expect(created.monitor.maximumLogs).toBe(50);
  });

  it.each(['short7c', 'k'.repeat(129), 'has space', 'dots.are.out', 'ünïcødé-key', 'slash/key1'])('idempotencyKey %j is refused', async (idempotencyKey) => {
    await refused(monitorBody({ idempotencyKey }), 'idempotencyKey');
  });

  it('idempotencyKey of 8 and of 128 characters of A-Z a-z 0-9 _ - is accepted', async () => {
    await accepted(monitorBody({ idempotencyKey: 'Ab0_-xyz' }));
    await accepted(monitorBody({ idempotencyKey: `K_-${'9'.repeat(125)}` }));
  });

  it('triggers: 5 are refused, 4 accepted, omitted means none', async () => {
    await refused(monitorBody({ triggers: triggers(5) }), 'triggers');
    expect((await accepted(monitorBody({ triggers: triggers(4) }))).monitor.triggers).toHaveLength(4);
    expect((await accepted(monitorBody())).monitor.triggers).toEqual([]);
  });

  it.each(['01', '-1', '1.0', 'abc', '', '1'.repeat(17), ' 5'])('startBlock %j is refused', async (startBlock) => {
    await refused(monitorBody({ startBlock }), 'startBlock');
  });

  it("startBlock '0' and a 16-digit block are accepted", async () => {
    expect((await accepted(monitorBody({ startBlock: '0' }))).monitor.startBlock).toBe('0');
    expect((await accepted(monitorBody({ startBlock: '9'.repeat(16) }))).monitor.startBlock).toBe('9'.repeat(16));
  });

  it('webhookUrl of 501 characters is refused, 500 accepted', async () => {
    const base = 'https://hooks.example.com/';
    await refused(monitorBody({ webhookUrl: base + 'p'.repeat(501 - base.length) }), 'webhookUrl');
    const created = await accepted(monitorBody({ webhookUrl: base + 'p'.repeat(500 - base.length) }));
    expect(created.monitor.webhook.url).toHaveLength(500);
  });

  it.each(['http://hooks.example.com/x', 'https://user:pw@hooks.example.com/x', 'https://hooks.example.com/x#frag', 'not a url'])('webhookUrl %j breaks the endpoint rules', async (webhookUrl) => {
    await refused(monitorBody({ webhookUrl }), 'webhookUrl');
  });

  it.each(['solana_sol', 'solana_usdc', 'free', ''])('paymentProfile %j is refused (none, sim, local_custody only)', async (paymentProfile) => {
    await refused(monitorBody({ paymentProfile }), 'paymentProfile');
  });

  it("paymentProfile 'none' is accepted with a key", async () => {
    expect((await accepted(monitorBody({ paymentProfile: 'none' }))).monitor.paymentProfile).toBe('none');
  });

  it.each(['0', '01', '-1', '1.5', '1'.repeat(79), ''])('spendCapAtomic %j does not match ^[1-9][0-9]{0,77}$', async (spendCapAtomic) => {
    await refused(monitorBody({ spendCapAtomic }), 'spendCapAtomic');
  });

  it.each(['a'.repeat(63), 'a'.repeat(65), 'A'.repeat(64), 'g'.repeat(64)])('consentHash %j is refused', async (consentHash) => {
    await refused(monitorBody({ consentHash }), 'consentHash');
  });

  it('consentHash of 64 lowercase hex characters is accepted', async () => {
    await accepted(monitorBody({ consentHash: 'ab'.repeat(32) }));
  });

  it.each([
    ['versionId', 'not-a-uuid'],
    ['listingId', 'not-a-uuid'],
  ])('%s must be a UUID', async (field, value) => {
    await refused(monitorBody({ [field]: value }), field);
  });

  it('an unknown property is refused, not ignored', async () => {
    const message = await refused(monitorBody({ color: 'blue' }), 'color');
    expect(message).toMatch(/not allowed/);
  });

  it('a body that is not an object is refused', async () => {
    const response = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: [monitorBody()] });
    expect(response.status).toBe(400);
  });
});

/** A rule of each type with every optional field. */
const FULL_RULES: Record<string, Record<string, unknown>> = {
  'erc20-transfer': { id: 'transfer', type: 'erc20-transfer', token: TOKEN, from: ALICE, to: BOB, minimumAtomic: '0' },
  'erc20-approval': { id: 'approval', type: 'erc20-approval', token: TOKEN, owner: ALICE, spender: BOB },
  'authority-change': { id: 'authority', type: 'authority-change', contract: TOKEN, events: ['Upgraded', 'AdminChanged', 'BeaconUpgraded', 'OwnershipTransferred'] },
  'wallet-token-flow': { id: 'flow', type: 'wallet-token-flow', wallet: ALICE, tokens: [TOKEN], direction: 'in' },
  'pool-activity': { id: 'pool', type: 'pool-activity', pool: TOKEN, dex: 'dex-one-v2', events: ['Swap', 'Mint', 'Burn'], minimumAmount0Atomic: '1', minimumAmount1Atomic: '0' },
  'governance-change': {
    id: 'governance',
    type: 'governance-change',
    contract: TOKEN,
    events: [
      'ProposalCreated', 'ProposalQueued', 'ProposalExecuted', 'ProposalCanceled', 'CallScheduled', 'CallExecuted', 'Cancelled',
      'MinDelayChange', 'QueueTransaction', 'ExecuteTransaction', 'CancelTransaction', 'NewDelay', 'NewAdmin', 'NewPendingAdmin',
    ],
  },
  'control-change': { id: 'control', type: 'control-change', contract: TOKEN, events: ['RoleGranted', 'RoleRevoked', 'RoleAdminChanged', 'Paused', 'Unpaused'] },
};

const REQUIRED: Record<string, string[]> = {
  'erc20-transfer': ['token'],
  'erc20-approval': ['token', 'owner'],
  'authority-change': ['contract'],
  'wallet-token-flow': ['wallet', 'tokens', 'direction'],
  'pool-activity': ['pool', 'dex'],
  'governance-change': ['contract'],
  'control-change': ['contract'],
};

const withRule = (rule: Record<string, unknown>) => monitorBody({ rules: [rule] });
const ruleWithout = (type: string, field: string) => {
  const rule = { ...FULL_RULES[type] };
  delete rule[field];
  return rule;
};

describe('rule objects (4.11)', () => {
  it('one rule of each of the seven types, with every optional field, is accepted and shown back', async () => {
    const created = await accepted(monitorBody({ rules: Object.values(FULL_RULES) }));
    expect(created.monitor.rules).toEqual(Object.values(FULL_RULES));
  });

  it.each(Object.keys(FULL_RULES))('%s with only its required fields is accepted', async (type) => {
    const rule: Record<string, unknown> = { id: 'r', type };
    for (const field of REQUIRED[type]) rule[field] = FULL_RULES[type][field];
    await accepted(withRule(rule));
  });

  it.each(Object.entries(REQUIRED).flatMap(([type, fields]) => [...fields, 'id', 'type'].map((field) => [type, field])))('%s without %s is refused', async (type, field) => {
    await refused(withRule(ruleWithout(type, field)), 'rules');
  });

  it.each(Object.keys(FULL_RULES))('%s refuses an additional property', async (type) => {
    await refused(withRule({ ...FULL_RULES[type], note: 'x' }), 'rules');
  });

  it('a property of another rule type is an additional property', async () => {
    await refused(withRule({ ...FULL_RULES['erc20-transfer'], events: ['Transfer'] }), 'rules');
    await refused(withRule({ ...FULL_RULES['authority-change'], token: TOKEN }), 'rules');
  });

  it.each(['erc721-transfer', 'ERC20-TRANSFER', ''])('type %j is refused', async (type) => {
    await refused(withRule({ ...FULL_RULES['erc20-transfer'], type }), 'rules');
  });

  it.each(['1rule', 'Rule', 'rule_one', '-rule', '', 'r'.repeat(41), 'rule one'])('rule id %j does not match ^[a-z][a-z0-9-]{0,39}$', async (id) => {
    await refused(withRule({ ...FULL_RULES['erc20-transfer'], id }), 'rules');
  });

  it("rule ids 'a' and 40 characters are accepted", async () => {
    await accepted(withRule({ ...FULL_RULES['erc20-transfer'], id: 'a' }));
    await accepted(withRule({ ...FULL_RULES['erc20-transfer'], id: `a${'b-9'.repeat(13)}` }));
  });

  it('two rules with the same id are refused', async () => {
    await refused(monitorBody({ rules: [transferRule(), transferRule()] }), 'transfers');
  });

  it.each(['01', '-1', '1.5', '1e3', '1'.repeat(79)])('erc20-transfer minimumAtomic %j is refused', async (minimumAtomic) => {
    await refused(withRule({ ...FULL_RULES['erc20-transfer'], minimumAtomic }), 'rules');
  });

  it('erc20-transfer minimumAtomic of 78 digits is accepted', async () => {
    await accepted(withRule({ ...FULL_RULES['erc20-transfer'], minimumAtomic: '9'.repeat(78) }));
  });

  describe('event lists', () => {
    const cases: Array<[string, number, string]> = [
      ['authority-change', 4, 'Transfer'],
      ['pool-activity', 3, 'Sync'],
      ['governance-change', 14, 'ProposalVoted'],
      ['control-change', 5, 'RoleChanged'],
    ];
    it.each(cases)('%s: an empty list, a duplicate and an unknown event are refused; 1 and all %i accepted', async (type, max, unknown) => {
      const all = FULL_RULES[type].events as string[];
      expect(all).toHaveLength(max);
      await refused(withRule({ ...FULL_RULES[type], events: [] }), 'rules');
      await refused(withRule({ ...FULL_RULES[type], events: [all[0], all[0]] }), 'rules');
      await refused(withRule({ ...FULL_RULES[type], events: [unknown] }), 'rules');
      await refused(withRule({ ...FULL_RULES[type], events: [all[0].toLowerCase()] }), 'rules');
      await refused(withRule({ ...FULL_RULES[type], events: all[0] }), 'rules');
      await accepted(withRule({ ...FULL_RULES[type], events: [all[max - 1]] }));
      await accepted(withRule({ ...FULL_RULES[type], events: all }));
    });

    it('an event of another rule type is refused', async () => {
      await refused(withRule({ ...FULL_RULES['control-change'], events: ['Upgraded'] }), 'rules');
      await refused(withRule({ ...FULL_RULES['authority-change'], events: ['Paused'] }), 'rules');
    });
  });

  it('wallet-token-flow: tokens 0 and 9 are refused, 8 accepted; direction in or out only', async () => {
    const tokens = (n: number) => Array.from({ length: n }, (_, i) => `0x${String(i).padStart(40, '0')}`);
    await refused(withRule({ ...FULL_RULES['wallet-token-flow'], tokens: [] }), 'rules');
    await refused(withRule({ ...FULL_RULES['wallet-token-flow'], tokens: tokens(9) }), 'rules');
    await accepted(withRule({ ...FULL_RULES['wallet-token-flow'], tokens: tokens(8) }));
    await refused(withRule({ ...FULL_RULES['wallet-token-flow'], direction: 'both' }), 'rules');
    await refused(withRule({ ...FULL_RULES['wallet-token-flow'], direction: 'IN' }), 'rules');
    await accepted(withRule({ ...FULL_RULES['wallet-token-flow'], direction: 'out' }));
  });

  it('pool-activity: dex enum and minimum amount patterns', async () => {
    for (const dex of ['dex-one-v2', 'dex-one-v3', 'dex-two']) await accepted(withRule({ ...FULL_RULES['pool-activity'], dex }));
    for (const dex of ['dex-three', 'dex-one-v4', '']) await refused(withRule({ ...FULL_RULES['pool-activity'], dex }), 'rules');
    for (const field of ['minimumAmount0Atomic', 'minimumAmount1Atomic']) {
      for (const value of ['-5', '01', '1.5']) await refused(withRule({ ...FULL_RULES['pool-activity'], [field]: value }), 'rules');
    }
  });
});

describe('trigger objects (4.12)', () => {
  it.each([
    ['lookbackBlocks', -1],
    ['lookbackBlocks', 2000],
    ['lookbackBlocks', 1.5],
    ['maximumRuns', 0],
    ['maximumRuns', 51],
    ['action', 'price-check'],
    ['id', 'Trigger'],
    ['onRule', '9rule'],
    ['extra', true],
  ])('%s = %j is refused', async (field, value) => {
    await refused(monitorBody({ triggers: [trigger({ [field]: value })] }), 'triggers');
  });

  it.each(['id', 'onRule', 'action'])('%s is required', async (field) => {
    const t: Record<string, unknown> = trigger();
    delete t[field];
    await refused(monitorBody({ triggers: [t] }), 'triggers');
  });

  it('lookbackBlocks 0 and 1999, maximumRuns 1 and 50 are accepted; defaults are 100 and 5', async () => {
    const created = await accepted(
      monitorBody({
        triggers: [
          trigger({ id: 'low', lookbackBlocks: 0, maximumRuns: 1 }),
          trigger({ id: 'high', lookbackBlocks: 1999, maximumRuns: 50, action: 'sender-approvals-check' }),
          trigger({ id: 'defaults' }),
        ],
      }),
    );
    expect(created.monitor.triggers).toEqual([
      { id: 'low', onRule: 'transfers', action: 'token-authority-check', lookbackBlocks: 0, maximumRuns: 1 },
      { id: 'high', onRule: 'transfers', action: 'sender-approvals-check', lookbackBlocks: 1999, maximumRuns: 50 },
      { id: 'defaults', onRule: 'transfers', action: 'token-authority-check', lookbackBlocks: 100, maximumRuns: 5 },
    ]);
  });

  it('onRule naming no rule of the monitor is refused with 400', async () => {
    const message = await refused(monitorBody({ triggers: [trigger({ onRule: 'missing-rule' })] }), 'onRule');
    expect(message).toContain('missing-rule');
  });

  it('two triggers with the same id are refused', async () => {
    await refused(monitorBody({ triggers: [trigger(), trigger()] }), 'check');
  });
});
