import { describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { ALICE, BOB, CAROL, cleanupAfterEach, createMonitor, detail, ethKey, mine, notifications, OTHER_TOKEN, start, TOKEN, transfer, type Log } from './support.ts';

/**
 * Each rule type of spec 4.11 matching and not matching, over real HTTP: logs
 * are mined with POST /sim/chains/{chain}/blocks and the events read back with
 * GET /v1/monitors/{id}. Every case mines one block whose log indexes say
 * which logs a monitor must have reported.
 */

cleanupAfterEach();

const POOL = `0x${'9f'.repeat(20)}`;
const GOVERNOR = `0x${'6a'.repeat(20)}`;

/** Creates one monitor per rule, mines `logs` in one block on `chain`, returns each monitor's matched log indexes. */
async function matches(sim: TestSimulator, rules: Record<string, Record<string, unknown>>, logs: Log[], chain = 'base'): Promise<Record<string, number[]>> {
  const { key } = ethKey(sim);
  const monitors: Record<string, string> = {};
  for (const [name, rule] of Object.entries(rules)) monitors[name] = (await createMonitor(sim, key, { name, chain, rules: [{ id: 'rule', ...rule }] })).id;
  const mined = await mine(sim, chain, logs);
  expect(mined.logs).toHaveLength(logs.length);
  const out: Record<string, number[]> = {};
  for (const [name, id] of Object.entries(monitors)) {
    const d = await detail(sim, key, id);
    for (const e of d.events) {
      expect(e).toMatchObject({ ruleId: 'rule', kind: 'match', status: 'active', blockNumber: mined.blocks[0].number, blockHash: mined.blocks[0].hash, retractedAt: null });
      expect(e.transactionHash).toBe(mined.logs[e.logIndex].transactionHash);
      expect(e.event).toEqual({ name: logs[e.logIndex].event, address: logs[e.logIndex].address.toLowerCase(), args: logs[e.logIndex].args });
      expect(e.explanation).toContain(`Rule rule (${rules[name].type})`);
    }
    out[name] = d.events.map((e: { logIndex: number }) => e.logIndex).sort((a: number, b: number) => a - b);
  }
  return out;
}

const log = (address: string, event: string, args: Record<string, string> = {}): Log => ({ address, event, args });

describe('erc20-transfer', () => {
  it('matches Transfer logs of the token, filtered by from, to and minimumAtomic; addresses compare case-insensitively', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        any: { type: 'erc20-transfer', token: TOKEN },
        filtered: { type: 'erc20-transfer', token: TOKEN.toUpperCase().replace('0X', '0x'), from: ALICE, to: BOB, minimumAtomic: '100' },
      },
      [
        transfer(ALICE, BOB, '100'), // 0: exactly the minimum
        transfer(ALICE, BOB, '99'), // 1: below the minimum
        transfer(CAROL, BOB, '500'), // 2: another sender
        transfer(ALICE, CAROL, '500'), // 3: another recipient
        transfer(ALICE, BOB, '500', OTHER_TOKEN), // 4: another token
        log(TOKEN, 'Approval', { owner: ALICE, spender: BOB, value: '500' }), // 5: another event
        { ...transfer(ALICE.toUpperCase().replace('0X', '0x'), BOB, '1000000000000000000000'), address: TOKEN.toUpperCase().replace('0X', '0x') }, // 6: mixed case, large
        transfer(ALICE, BOB, 'not-a-number'), // 7: a value that is not an amount
      ],
    );
    expect(result.any).toEqual([0, 1, 2, 3, 6, 7]);
    expect(result.filtered).toEqual([0, 6]);
  });
});

describe('erc20-approval', () => {
  it('matches Approval logs of the token by owner, and by spender when given', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        owner: { type: 'erc20-approval', token: TOKEN, owner: ALICE },
        spender: { type: 'erc20-approval', token: TOKEN, owner: ALICE, spender: BOB },
      },
      [
        log(TOKEN, 'Approval', { owner: ALICE, spender: BOB, value: '1' }), // 0
        log(TOKEN, 'Approval', { owner: ALICE, spender: CAROL, value: '1' }), // 1: other spender
        log(TOKEN, 'Approval', { owner: CAROL, spender: BOB, value: '1' }), // 2: other owner
        log(OTHER_TOKEN, 'Approval', { owner: ALICE, spender: BOB, value: '1' }), // 3: other token
        transfer(ALICE, BOB, '1'), // 4: not an approval
      ],
      'ethereum',
    );
    expect(result.owner).toEqual([0, 1]);
    expect(result.spender).toEqual([0]);
  });
});

describe('authority-change', () => {
  it('matches the contract\'s authority events, all four by default or the listed subset', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        all: { type: 'authority-change', contract: TOKEN },
        subset: { type: 'authority-change', contract: TOKEN, events: ['Upgraded', 'OwnershipTransferred'] },
      },
      [
        log(TOKEN, 'Upgraded', { implementation: CAROL }), // 0
        log(TOKEN, 'AdminChanged', { previousAdmin: ALICE, newAdmin: BOB }), // 1
        log(TOKEN, 'BeaconUpgraded', { beacon: CAROL }), // 2
        log(TOKEN, 'OwnershipTransferred', { previousOwner: ALICE, newOwner: BOB }), // 3
        log(OTHER_TOKEN, 'Upgraded', { implementation: CAROL }), // 4: other contract
        transfer(ALICE, BOB, '1'), // 5
      ],
      'chainx',
    );
    expect(result.all).toEqual([0, 1, 2, 3]);
    expect(result.subset).toEqual([0, 3]);
  });
});

describe('wallet-token-flow', () => {
  it('direction in matches transfers of the listed tokens to the wallet; out, from it', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        in: { type: 'wallet-token-flow', wallet: ALICE, tokens: [TOKEN, OTHER_TOKEN], direction: 'in' },
        out: { type: 'wallet-token-flow', wallet: ALICE, tokens: [TOKEN], direction: 'out' },
      },
      [
        transfer(BOB, ALICE, '5'), // 0: in, TOKEN
        transfer(BOB, ALICE, '5', OTHER_TOKEN), // 1: in, OTHER_TOKEN
        transfer(ALICE, BOB, '5'), // 2: out, TOKEN
        transfer(ALICE, BOB, '5', OTHER_TOKEN), // 3: out, OTHER_TOKEN (not listed for out)
        transfer(BOB, ALICE, '5', POOL), // 4: in, unlisted token
        transfer(BOB, CAROL, '5'), // 5: not the wallet
        log(TOKEN, 'Approval', { owner: ALICE, spender: BOB, value: '5' }), // 6: not a transfer
      ],
    );
    expect(result.in).toEqual([0, 1]);
    expect(result.out).toEqual([2]);
  });
});

describe('pool-activity', () => {
  it('matches the pool\'s events, the listed subset, and minimum amounts by absolute value (negative amounts included)', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        all: { type: 'pool-activity', pool: POOL, dex: 'dex-one-v3' },
        filtered: { type: 'pool-activity', pool: POOL, dex: 'dex-two', events: ['Swap', 'Burn'], minimumAmount0Atomic: '1000', minimumAmount1Atomic: '5' },
      },
      [
        log(POOL, 'Swap', { amount0: '-2000', amount1: '10' }), // 0: negative amount0 over the minimum
        log(POOL, 'Swap', { amount0: '999', amount1: '10' }), // 1: amount0 below
        log(POOL, 'Swap', { amount0: '1000', amount1: '-4' }), // 2: amount1 below (|-4| < 5)
        log(POOL, 'Burn', { amount0: '1000', amount1: '-5' }), // 3: exactly both minimums
        log(POOL, 'Mint', { amount0: '5000', amount1: '5000' }), // 4: not in the subset
        log(OTHER_TOKEN, 'Swap', { amount0: '5000', amount1: '5000' }), // 5: another pool
        log(POOL, 'Swap', { amount1: '5000' }), // 6: amount0 missing
        log(POOL, 'Sync', { reserve0: '1', reserve1: '1' }), // 7: not a pool-activity event
        log(POOL, 'Swap', { amount0: '-999', amount1: '-99999' }), // 8: |amount0| below
      ],
    );
    expect(result.all).toEqual([0, 1, 2, 3, 4, 6, 8]);
    expect(result.filtered).toEqual([0, 3]);
  });
});

describe('governance-change', () => {
  const ALL = [
    'ProposalCreated', 'ProposalQueued', 'ProposalExecuted', 'ProposalCanceled', 'CallScheduled', 'CallExecuted', 'Cancelled',
    'MinDelayChange', 'QueueTransaction', 'ExecuteTransaction', 'CancelTransaction', 'NewDelay', 'NewAdmin', 'NewPendingAdmin',
  ];
  it('matches all fourteen governance events of the contract by default, or the listed subset', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        all: { type: 'governance-change', contract: GOVERNOR },
        subset: { type: 'governance-change', contract: GOVERNOR, events: ['ProposalCreated', 'NewAdmin'] },
      },
      [...ALL.map((event) => log(GOVERNOR, event, { id: '1' })), log(OTHER_TOKEN, 'ProposalCreated', { id: '2' }), log(GOVERNOR, 'VoteCast', { id: '1' })],
    );
    expect(result.all).toEqual(ALL.map((_, i) => i));
    expect(result.subset).toEqual([ALL.indexOf('ProposalCreated'), ALL.indexOf('NewAdmin')]);
  });
});

describe('control-change', () => {
  it('matches role and pause events of the contract, all five by default, or the listed subset', async () => {
    const sim = await start();
    const result = await matches(
      sim,
      {
        all: { type: 'control-change', contract: TOKEN },
        subset: { type: 'control-change', contract: TOKEN, events: ['RoleGranted', 'Paused'] },
      },
      [
        log(TOKEN, 'RoleGranted', { role: '0x00', account: ALICE, sender: BOB }), // 0
        log(TOKEN, 'RoleRevoked', { role: '0x00', account: ALICE, sender: BOB }), // 1
        log(TOKEN, 'RoleAdminChanged', { role: '0x00' }), // 2
        log(TOKEN, 'Paused', { account: BOB }), // 3
        log(TOKEN, 'Unpaused', { account: BOB }), // 4
        log(OTHER_TOKEN, 'Paused', { account: BOB }), // 5: other contract
        log(TOKEN, 'Upgraded', { implementation: CAROL }), // 6: authority, not control
      ],
    );
    expect(result.all).toEqual([0, 1, 2, 3, 4]);
    expect(result.subset).toEqual([0, 3]);
  });
});

describe('several rules on one monitor', () => {
  it('a log matching two rules gives one event per rule; each event names its rule', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, {
      rules: [
        { id: 'transfers', type: 'erc20-transfer', token: TOKEN },
        { id: 'inflow', type: 'wallet-token-flow', wallet: BOB, tokens: [TOKEN], direction: 'in' },
      ],
    });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1'), transfer(ALICE, CAROL, '1')]);
    const d = await detail(sim, key, monitor.id);
    expect(d.events.map((e: any) => `${e.logIndex}:${e.ruleId}`).sort()).toEqual(['0:inflow', '0:transfers', '1:transfers']);
    // Newest first.
    expect(d.events.map((e: any) => e.logIndex)).toEqual([1, 0, 0]);
  });
});

describe('triggers (4.12)', () => {
  it('token-authority-check runs on matches of its rule, at most maximumRuns times, looking back lookbackBlocks; each run costs 2 reads', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, {
      rules: [
        { id: 'transfers', type: 'erc20-transfer', token: TOKEN },
        { id: 'approvals', type: 'erc20-approval', token: TOKEN, owner: ALICE },
      ],
      triggers: [{ id: 'authority', onRule: 'transfers', action: 'token-authority-check', lookbackBlocks: 10, maximumRuns: 2 }],
    });
    // Block 1: an authority change on the token (and one on another contract).
    await mine(sim, 'base', [log(TOKEN, 'Upgraded', { implementation: CAROL }), log(OTHER_TOKEN, 'OwnershipTransferred', { previousOwner: ALICE, newOwner: BOB })]);
    // Block 2: three transfers and an approval (the approval's rule has no trigger).
    const second = await mine(sim, 'base', [transfer(ALICE, BOB, '1'), transfer(ALICE, BOB, '2'), transfer(ALICE, BOB, '3'), log(TOKEN, 'Approval', { owner: ALICE, spender: BOB, value: '1' })]);
    // Block 3: another transfer; the trigger has run its two times.
    await mine(sim, 'base', [transfer(ALICE, BOB, '4')]);

    const d = await detail(sim, key, monitor.id);
    const triggerEvents = d.events.filter((e: any) => e.kind === 'trigger');
    const matchEvents = d.events.filter((e: any) => e.kind === 'match');
    expect(matchEvents).toHaveLength(5);
    expect(triggerEvents).toHaveLength(2);
    for (const [i, e] of triggerEvents.reverse().entries()) {
      expect(e).toMatchObject({ ruleId: 'authority', blockNumber: second.blocks[0].number, logIndex: i, status: 'active' });
      expect(e.event.name).toBe('token-authority-check');
      expect(e.event.onRule).toBe('transfers');
      expect(e.event.findings).toEqual([{ event: 'Upgraded', address: TOKEN, blockNumber: String(Number(second.blocks[0].number) - 1), args: { implementation: CAROL } }]);
      expect(e.fields).toEqual({ findings: '1', lookbackBlocks: '10' });
    }
    // Accounting: three one-block windows = 3 ticks; reads 1 + (1 + 2 runs × 2) + 1 = 7.
    expect(d.monitor.ticksUsed).toBe(3);
    expect(d.monitor.rpcUsed).toBe(7);
    expect(d.windows.map((w: any) => w.rpcUsed)).toEqual([1, 5, 1]);
    // One notification per event, triggers included.
    const kinds = (await notifications(sim, key)).filter((n) => n.monitorId === monitor.id).map((n) => n.kind);
    expect(kinds).toEqual(Array(7).fill('monitor.event'));
  });

  it('lookbackBlocks 0 looks at the matched block only', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { triggers: [{ id: 'authority', onRule: 'transfers', action: 'token-authority-check', lookbackBlocks: 0 }] });
    await mine(sim, 'base', [log(TOKEN, 'AdminChanged', { previousAdmin: ALICE, newAdmin: BOB })]);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    await mine(sim, 'base', [log(TOKEN, 'BeaconUpgraded', { beacon: CAROL }), transfer(ALICE, BOB, '1')]);
    const runs = (await detail(sim, key, monitor.id)).events.filter((e: any) => e.kind === 'trigger').reverse();
    expect(runs.map((e: any) => e.fields.findings)).toEqual(['0', '1']);
    expect(runs[1].event.findings[0].event).toBe('BeaconUpgraded');
  });

  it('sender-approvals-check finds approvals granted by the transfer\'s sender; defaults allow 5 runs', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { triggers: [{ id: 'approvals', onRule: 'transfers', action: 'sender-approvals-check' }] });
    await mine(sim, 'base', [log(OTHER_TOKEN, 'Approval', { owner: ALICE, spender: CAROL, value: '9' }), log(TOKEN, 'Approval', { owner: BOB, spender: CAROL, value: '9' })]);
    await mine(sim, 'base', Array.from({ length: 7 }, (_, i) => transfer(ALICE, BOB, String(i + 1))));
    const d = await detail(sim, key, monitor.id);
    const runs = d.events.filter((e: any) => e.kind === 'trigger');
    expect(runs).toHaveLength(5);
    for (const run of runs) {
      expect(run.fields).toEqual({ findings: '1', lookbackBlocks: '100' });
      expect(run.event.findings).toEqual([expect.objectContaining({ event: 'Approval', address: OTHER_TOKEN, args: { owner: ALICE, spender: CAROL, value: '9' } })]);
    }
    expect(d.events.filter((e: any) => e.kind === 'match')).toHaveLength(7);
    expect(d.monitor.rpcUsed).toBe(1 + 1 + 5 * 2);
  });

  it('a trigger does not run for matches of another rule', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, {
      rules: [
        { id: 'transfers', type: 'erc20-transfer', token: TOKEN },
        { id: 'others', type: 'erc20-transfer', token: OTHER_TOKEN },
      ],
      triggers: [{ id: 'authority', onRule: 'others', action: 'token-authority-check' }],
    });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1'), transfer(ALICE, BOB, '1')]);
    let d = await detail(sim, key, monitor.id);
    expect(d.events.map((e: any) => e.kind)).toEqual(['match', 'match']);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1', OTHER_TOKEN)]);
    d = await detail(sim, key, monitor.id);
    expect(d.events.map((e: any) => `${e.kind}:${e.ruleId}`)).toEqual(['trigger:authority', 'match:others', 'match:transfers', 'match:transfers']);
  });
});

describe('monitors per chain', () => {
  it('a monitor sees only its own chain', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const onBase = await createMonitor(sim, key, { chain: 'base' });
    const onEthereum = await createMonitor(sim, key, { chain: 'ethereum' });
    await mine(sim, 'ethereum', [transfer(ALICE, BOB, '1')]);
    expect((await detail(sim, key, onBase.id)).events).toEqual([]);
    expect((await detail(sim, key, onEthereum.id)).events).toHaveLength(1);
  });
});
