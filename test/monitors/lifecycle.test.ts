import { describe, expect, it } from 'vitest';
import { transact } from '../../sim/domain/context.ts';
import { scheduleChainScript } from '../../sim/domain/chains/index.ts';
import { schedule } from '../../sim/domain/jobs/index.ts';
import { ALICE, BOB, CAROL, EPOCH_MS, OTHER_TOKEN, TOKEN, transferRule, advance, chainHead, cleanupAfterEach, createMonitor, deliverySetup, detail, ethKey, expectedSignature, mine, notifications, reorg, start, transfer, UUID, waitFor } from './support.ts';

/** Chains, the monitor engine's accounting, statuses, reorgs, caps, notifications, chain scripts. */

cleanupAfterEach();

const at = (seconds: number) => new Date(EPOCH_MS + seconds * 1000).toISOString();

describe('simulated chains', () => {
  it('heads advance with the clock: ethereum every 12 s, base every 2 s, chainx every 5 s', async () => {
    const sim = await start();
    const before = { ethereum: await chainHead(sim, 'ethereum'), base: await chainHead(sim, 'base'), chainx: await chainHead(sim, 'chainx') };
    expect(before.ethereum.cadenceMs).toBe(12_000);
    expect(before.base.cadenceMs).toBe(2_000);
    expect(before.chainx.cadenceMs).toBe(5_000);
    await advance(sim, { seconds: 60 });
    expect(BigInt((await chainHead(sim, 'ethereum')).head) - BigInt(before.ethereum.head)).toBe(5n);
    expect(BigInt((await chainHead(sim, 'base')).head) - BigInt(before.base.head)).toBe(30n);
    expect(BigInt((await chainHead(sim, 'chainx')).head) - BigInt(before.chainx.head)).toBe(12n);
    // Part of a block does not count.
    await advance(sim, { seconds: 11 });
    expect(BigInt((await chainHead(sim, 'ethereum')).head) - BigInt(before.ethereum.head)).toBe(5n);
  });

  it('block hashes are deterministic: two simulators agree, and a reorg gives the replaced blocks new hashes', async () => {
    const one = await start();
    const two = await start({ seed: 99 });
    expect((await chainHead(one, 'base')).headHash).toBe((await chainHead(two, 'base')).headHash);
    const minedOne = await mine(one, 'base', [], 3);
    const minedTwo = await mine(two, 'base', [], 3);
    expect(minedOne.blocks).toEqual(minedTwo.blocks);
    for (const b of minedOne.blocks) expect(b.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Set(minedOne.blocks.map((b) => b.hash)).size).toBe(3);

    const replaced = await reorg(one, 'base', 2);
    expect(replaced.blocks.map((b) => b.number)).toEqual(minedOne.blocks.slice(1).map((b) => b.number));
    expect(replaced.blocks[0].hash).not.toBe(minedOne.blocks[1].hash);
    expect(replaced.blocks[1].hash).not.toBe(minedOne.blocks[2].hash);
    // The head is unchanged by a reorg; the untouched block keeps its hash.
    expect((await chainHead(one, 'base')).head).toBe(minedOne.blocks[2].number);
    const again = await reorg(two, 'base', 2);
    expect(again.blocks).toEqual(replaced.blocks);
  });

  it('POST blocks mines count blocks now with the logs in the first; POST reorg reports removed logs', async () => {
    const sim = await start();
    const head = BigInt((await chainHead(sim, 'chainx')).head);
    const mined = await mine(sim, 'chainx', [transfer(ALICE, BOB, '1'), transfer(BOB, CAROL, '2')], 4);
    expect(mined.blocks.map((b) => b.number)).toEqual([1n, 2n, 3n, 4n].map((i) => String(head + i)));
    expect(mined.logs.map((l) => [l.blockNumber, l.logIndex, l.address, l.event])).toEqual([
      [String(head + 1n), 0, TOKEN, 'Transfer'],
      [String(head + 1n), 1, TOKEN, 'Transfer'],
    ]);
    expect((await chainHead(sim, 'chainx')).head).toBe(String(head + 4n));
    const shallow = await reorg(sim, 'chainx', 3);
    expect(shallow.removed).toEqual([]);
    const deep = await reorg(sim, 'chainx', 4, [transfer(CAROL, ALICE, '3')]);
    expect(deep.removed.map((l) => [l.blockNumber, l.logIndex, l.transactionHash])).toEqual(mined.logs.map((l) => [l.blockNumber, l.logIndex, l.transactionHash]));
  });

  it('an unknown chain is 404; bad bodies are 400', async () => {
    const sim = await start();
    expect((await sim.json({ method: 'POST', url: '/sim/chains/solana/blocks', body: {} })).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: '/sim/chains/polygon/reorg', body: { depth: 1 } })).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: '/sim/chains/base/blocks', body: { count: 0 } })).status).toBe(400);
    expect((await sim.json({ method: 'POST', url: '/sim/chains/base/reorg', body: { depth: 0 } })).status).toBe(400);
    expect((await sim.json({ method: 'POST', url: '/sim/chains/base/blocks', body: { logs: [{ address: TOKEN, event: 'Transfer' }] } })).status).toBe(400);
  });
});

describe('monitor engine accounting', () => {
  it('a window costs 1 tick and 1 read; runs of empty windows are accounted in one step when the next log window completes', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { windowBlocks: 10 });
    const start0 = BigInt(monitor.startBlock);
    // 100 s on base: 50 empty blocks, five complete windows; nothing has to look yet.
    const idle = await advance(sim, { seconds: 100 });
    expect(idle.processed.filter((j) => j.kind === 'monitor.tick')).toEqual([]);
    // A log in block start+50, then the rest of its window.
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    let d = await detail(sim, key, monitor.id);
    expect(d.events).toEqual([]);
    await mine(sim, 'base', [], 9);
    d = await detail(sim, key, monitor.id);
    expect(d.events).toHaveLength(1);
    expect(d.windows).toEqual([
      expect.objectContaining({ fromBlock: String(start0 + 50n), toBlock: String(start0 + 59n), windows: 1, logsMatched: 1, logsDropped: 0, rpcUsed: 1 }),
      expect.objectContaining({ fromBlock: String(start0), toBlock: String(start0 + 49n), windows: 5, logsMatched: 0, logsDropped: 0, rpcUsed: 5 }),
    ]);
    expect(d.monitor).toMatchObject({ ticksUsed: 6, rpcUsed: 6, nextBlock: String(start0 + 60n), status: 'active' });
  });

  it('a window holding logs only at addresses no rule watches is empty to the monitor: accounted with the empty run before the next watched log, the same ticks and reads', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    // The rule names its token in upper case; logs are compared without case.
    const monitor = await createMonitor(sim, key, { windowBlocks: 10, rules: [transferRule({ token: TOKEN.toUpperCase().replace('0X', '0x') })] });
    const start0 = BigInt(monitor.startBlock);
    // Transfers of another token in blocks start+0 and start+20, then one of the watched token in start+40.
    await mine(sim, 'base', [transfer(ALICE, BOB, '5', OTHER_TOKEN)], 20);
    await mine(sim, 'base', [transfer(BOB, CAROL, '6', OTHER_TOKEN)], 20);
    await mine(sim, 'base', [transfer(CAROL, ALICE, '7')], 10);
    // Mining lets the monitor look: the window holding the watched log is complete now.
    const d = await detail(sim, key, monitor.id);
    expect(d.events.map((e: { fields: { value: string } }) => e.fields.value)).toEqual(['7']);
    // Scanned one by one, the other token's windows would be rows of their own (start+0 and start+20).
    expect(d.windows).toEqual([
      expect.objectContaining({ fromBlock: String(start0 + 40n), toBlock: String(start0 + 49n), windows: 1, logsMatched: 1, rpcUsed: 1 }),
      expect.objectContaining({ fromBlock: String(start0), toBlock: String(start0 + 39n), windows: 4, logsMatched: 0, rpcUsed: 4 }),
    ]);
    expect(d.monitor).toMatchObject({ ticksUsed: 5, rpcUsed: 5, nextBlock: String(start0 + 50n) });
  });

  it('a startBlock in the past is caught up at creation', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const head = BigInt((await chainHead(sim, 'base')).head);
    await mine(sim, 'base', [transfer(ALICE, BOB, '7')]);
    await mine(sim, 'base', [], 9);
    const monitor = await createMonitor(sim, key, { startBlock: String(head - 9n), windowBlocks: 5 });
    const d = await detail(sim, key, monitor.id);
    expect(d.events).toHaveLength(1);
    expect(d.events[0].blockNumber).toBe(String(head + 1n));
    expect(d.monitor.ticksUsed).toBe(4);
    expect(d.monitor.nextBlock).toBe(String(head + 11n));
  });

  it('tickBudget used up → exhausted, with a monitor.status notification; nothing is scanned afterwards', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { tickBudget: 5 });
    const advanced = await advance(sim, { seconds: 60 });
    expect(advanced.processed).toContainEqual({ kind: 'monitor.tick', ref: monitor.id, at: at(10) });
    const d = await detail(sim, key, monitor.id);
    expect(d.monitor).toMatchObject({ status: 'exhausted', statusReason: 'tickBudget used up', ticksUsed: 5, rpcUsed: 5 });
    const status = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.status');
    expect(status).toHaveLength(1);
    expect(status[0]).toMatchObject({ monitorId: monitor.id, title: 'Monitor exhausted', createdAt: at(10), acknowledgedAt: null });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    await advance(sim, { seconds: 60 });
    const after = await detail(sim, key, monitor.id);
    expect(after.events).toEqual([]);
    expect(after.monitor.ticksUsed).toBe(5);
  });

  it('rpcBudget used up → exhausted; trigger runs that would overspend the reads are skipped', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { rpcBudget: 10, triggers: [{ id: 'authority', onRule: 'transfers', action: 'token-authority-check', maximumRuns: 5 }] });
    await mine(sim, 'base', Array.from({ length: 6 }, (_, i) => transfer(ALICE, BOB, String(i + 1))));
    let d = await detail(sim, key, monitor.id);
    // 1 read for the window + 4 runs × 2 = 9; a fifth run would need 11.
    expect(d.events.filter((e: any) => e.kind === 'trigger')).toHaveLength(4);
    expect(d.events.filter((e: any) => e.kind === 'match')).toHaveLength(6);
    expect(d.monitor).toMatchObject({ status: 'active', rpcUsed: 9, ticksUsed: 1 });
    await advance(sim, { seconds: 10 });
    d = await detail(sim, key, monitor.id);
    expect(d.monitor).toMatchObject({ status: 'exhausted', statusReason: 'rpcBudget used up', rpcUsed: 10, ticksUsed: 2 });
  });

  it('rpcBudget without triggers: 10 reads are 10 windows', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { rpcBudget: 10, chain: 'chainx' });
    const advanced = await advance(sim, { seconds: 120 });
    // The tenth one-block window on chainx completes 50 s in.
    expect(advanced.processed).toContainEqual({ kind: 'monitor.tick', ref: monitor.id, at: at(50) });
    expect((await detail(sim, key, monitor.id)).monitor).toMatchObject({ status: 'exhausted', statusReason: 'rpcBudget used up', rpcUsed: 10, ticksUsed: 10 });
  });

  it('at endsAt → expired with a monitor.status notification; the windows completed before then are accounted', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { durationSeconds: 120, windowBlocks: 25 });
    expect(monitor.endsAt).toBe(at(120));
    const advanced = await advance(sim, { seconds: 119 });
    expect((await detail(sim, key, monitor.id)).monitor.status).toBe('active');
    expect(advanced.processed.filter((j) => j.kind === 'monitor.tick')).toEqual([]);
    const last = await advance(sim, { seconds: 1 });
    expect(last.processed).toContainEqual({ kind: 'monitor.tick', ref: monitor.id, at: at(120) });
    const d = await detail(sim, key, monitor.id);
    // 120 s of base is 60 blocks: two complete windows of 25.
    expect(d.monitor).toMatchObject({ status: 'expired', statusReason: 'the monitor reached endsAt', ticksUsed: 2, rpcUsed: 2 });
    const status = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.status');
    expect(status.map((n) => [n.title, n.createdAt])).toEqual([['Monitor expired', at(120)]]);
    // Stop after expiry: the stop is recorded (any non-stopped state), no further notification.
    const stopped = await sim.json({ method: 'POST', url: `/v1/monitors/${monitor.id}/stop`, key });
    expect(stopped.body.monitor.status).toBe('stopped');
    expect((await notifications(sim, key)).filter((n) => n.kind === 'monitor.status')).toHaveLength(1);
  });

  it('a log whose window completes before endsAt is reported; one completing after endsAt is not', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { durationSeconds: 60, windowBlocks: 5 });
    await advance(sim, { seconds: 40 });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    await advance(sim, { seconds: 20 });
    await mine(sim, 'base', [transfer(ALICE, BOB, '2')]);
    await advance(sim, { seconds: 30 });
    const d = await detail(sim, key, monitor.id);
    expect(d.monitor.status).toBe('expired');
    expect(d.events.map((e: any) => e.event.args.value)).toEqual(['1']);
  });
});

describe('POST /v1/monitors/{id}/stop', () => {
  it('stops at once, repeating returns the current state, and a stopped monitor reports nothing more', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const first = await sim.json({ method: 'POST', url: `/v1/monitors/${monitor.id}/stop`, key });
    expect(first.status).toBe(200);
    expect(first.body.monitor).toMatchObject({ id: monitor.id, status: 'stopped', statusReason: 'stopped by the owner', ticksUsed: 1 });
    await advance(sim, { seconds: 5 });
    const second = await sim.json({ method: 'POST', url: `/v1/monitors/${monitor.id}/stop`, key });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    await mine(sim, 'base', [transfer(ALICE, BOB, '2')]);
    const advanced = await advance(sim, { seconds: 3600 });
    expect(advanced.processed.filter((j) => j.ref === monitor.id)).toEqual([]);
    const d = await detail(sim, key, monitor.id);
    expect(d.events).toHaveLength(1);
    expect(d.monitor.status).toBe('stopped');
    // Stopping is no status notification; only the one event was notified.
    expect((await notifications(sim, key)).map((n) => n.kind)).toEqual(['monitor.event']);
    expect((await sim.json({ method: 'POST', url: '/v1/monitors/00000000-0000-4000-8000-000000000000/stop', key })).status).toBe(404);
  });

  it('an exhausted monitor can be stopped', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { tickBudget: 1 });
    await advance(sim, { seconds: 10 });
    expect((await detail(sim, key, monitor.id)).monitor.status).toBe('exhausted');
    const stopped = await sim.json({ method: 'POST', url: `/v1/monitors/${monitor.id}/stop`, key });
    expect(stopped.body.monitor.status).toBe('stopped');
  });
});

describe('reorgs', () => {
  it('a removed log retracts its events (and the trigger run it set off): retractedEvents, a monitor.event.retracted notification and delivery', async () => {
    const sim = await start();
    const { key, receiver, signingSecret, monitor: plain } = await deliverySetup(sim);
    // The setup's monitor is replaced by one with a trigger, subscribed the same way.
    await sim.json({ method: 'POST', url: `/v1/monitors/${plain.id}/stop`, key });
    const destinationId = (await sim.json({ url: `/sim/monitors/${plain.id}` })).body.subscriptions[0].destinationId;
    const monitor = await createMonitor(sim, key, { triggers: [{ id: 'authority', onRule: 'transfers', action: 'token-authority-check' }] });
    expect((await sim.json({ method: 'POST', url: `/sim/monitors/${monitor.id}/subscriptions`, body: { destinationId } })).status).toBe(201);

    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const kept = await mine(sim, 'base', [transfer(ALICE, BOB, '2')]);
    const doomed = await mine(sim, 'base', [transfer(ALICE, BOB, '3')]);
    await waitFor(() => receiver.deliveries().length === 6, 'six monitor.event deliveries');
    let d = await detail(sim, key, monitor.id);
    expect(d.events).toHaveLength(6);
    expect(d.retractedEvents).toEqual([]);
    const doomedEvents = d.events.filter((e: any) => e.blockNumber === doomed.blocks[0].number);
    expect(doomedEvents.map((e: any) => e.kind).sort()).toEqual(['match', 'trigger']);

    await advance(sim, { seconds: 10 });
    const removed = await reorg(sim, 'base', 1 + 5);
    expect(removed.removed).toHaveLength(1);
    expect(removed.removed[0].blockNumber).toBe(doomed.blocks[0].number);

    d = await detail(sim, key, monitor.id);
    expect(d.retractedEvents.map((e: any) => e.id).sort()).toEqual(doomedEvents.map((e: any) => e.id).sort());
    for (const e of d.retractedEvents) expect(e).toMatchObject({ status: 'retracted', retractedAt: at(10) });
    // The others stay, and the still-canonical block is not reported twice by the rescan.
    expect(d.events).toHaveLength(6);
    expect(d.events.filter((e: any) => e.status === 'active' && e.blockNumber === kept.blocks[0].number)).toHaveLength(2);

    const retractions = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.event.retracted');
    expect(retractions).toHaveLength(2);
    expect(retractions.map((n) => n.event.eventId).sort()).toEqual(doomedEvents.map((e: any) => e.id).sort());
    for (const n of retractions) expect(n.event).toMatchObject({ blockNumber: doomed.blocks[0].number, status: 'retracted' });

    const retracted = await waitFor(() => {
      const got = receiver.deliveries().filter((r) => r.json?.type === 'monitor.event.retracted');
      return got.length === 2 ? got : null;
    }, 'two monitor.event.retracted deliveries');
    for (const r of retracted) {
      expect(r.json).toMatchObject({ type: 'monitor.event.retracted', monitorId: monitor.id, status: 'retracted', blockNumber: doomed.blocks[0].number, eventId: expect.stringMatching(UUID) });
      expect(doomedEvents.map((e: any) => e.id)).toContain(r.json.eventId);
      expect(r.headers['x-service-signature']).toBe(expectedSignature(signingSecret, String(r.headers['x-service-timestamp']), String(r.headers['x-service-event-id']), r.raw));
    }
    expect(receiver.deliveries()).toHaveLength(8);
    expect(d.deliveries.filter((x: any) => x.type === 'monitor.event.retracted').map((x: any) => x.state)).toEqual(['delivered', 'delivered']);
  });

  it('a reorg that removes nothing reported changes no event; replacement logs are found by the rescan', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { windowBlocks: 5 });
    const first = await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    await mine(sim, 'base', [], 4);
    expect((await detail(sim, key, monitor.id)).events).toHaveLength(1);
    // Replace the newest two blocks of the same window; the first block of the window stays canonical.
    const replaced = await reorg(sim, 'base', 2, [transfer(BOB, CAROL, '9')]);
    expect(replaced.removed).toEqual([]);
    const d = await detail(sim, key, monitor.id);
    expect(d.events.map((e: any) => [e.blockNumber, e.event.args.value, e.status])).toEqual([
      [replaced.blocks[0].number, '9', 'active'],
      [first.blocks[0].number, '1', 'active'],
    ]);
    expect(d.retractedEvents).toEqual([]);
    expect((await notifications(sim, key)).map((n) => n.kind)).toEqual(['monitor.event', 'monitor.event']);
  });
});

describe('maximumLogs', () => {
  it('caps events per window; the rest are dropped and the window is listed in missedWindows', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key, { maximumLogs: 2 });
    const mined = await mine(sim, 'base', Array.from({ length: 5 }, (_, i) => transfer(ALICE, BOB, String(i))));
    await mine(sim, 'base', [transfer(ALICE, BOB, '99')]);
    const d = await detail(sim, key, monitor.id);
    expect(d.events.map((e: any) => e.event.args.value)).toEqual(['99', '1', '0']);
    expect(d.missedWindows).toEqual([expect.objectContaining({ fromBlock: mined.blocks[0].number, toBlock: mined.blocks[0].number, logsMatched: 2, logsDropped: 3 })]);
    expect(d.windows.map((w: any) => [w.logsMatched, w.logsDropped])).toEqual([
      [1, 0],
      [2, 3],
    ]);
    expect((await notifications(sim, key)).filter((n) => n.kind === 'monitor.event')).toHaveLength(3);
  });
});

describe('notifications (2.14, 3.7)', () => {
  it('one per event, newest first; ack sets acknowledgedAt once and repeating returns the same', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    await advance(sim, { seconds: 1 });
    await mine(sim, 'base', [transfer(ALICE, BOB, '2'), transfer(ALICE, BOB, '3')]);
    const d = await detail(sim, key, monitor.id);
    const list = await notifications(sim, key);
    expect(list).toHaveLength(3);
    expect(list.map((n) => n.event.args.value)).toEqual(['3', '2', '1']);
    expect(list.map((n) => n.event.eventId)).toEqual(d.events.map((e: any) => e.id));
    for (const n of list) {
      expect(n).toMatchObject({ id: expect.stringMatching(UUID), monitorId: monitor.id, kind: 'monitor.event', acknowledgedAt: null });
      expect(n.title).toContain('Transfer');
      expect(typeof n.body).toBe('string');
    }
    expect(list[2].createdAt).toBe(at(0));
    expect(list[0].createdAt).toBe(at(1));

    await advance(sim, { seconds: 30 });
    const ack = await sim.json({ method: 'POST', url: `/v1/notifications/${list[1].id}/ack`, key });
    expect(ack.status).toBe(200);
    expect(ack.body.notification).toEqual({ ...list[1], acknowledgedAt: at(31) });
    await advance(sim, { seconds: 30 });
    const again = await sim.json({ method: 'POST', url: `/v1/notifications/${list[1].id}/ack`, key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(ack.body);
    const after = await notifications(sim, key);
    expect(after.map((n) => n.acknowledgedAt)).toEqual([null, at(31), null]);

    expect((await sim.json({ method: 'POST', url: '/v1/notifications/00000000-0000-4000-8000-000000000000/ack', key })).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: '/v1/notifications/not-a-uuid/ack', key })).status).toBe(400);
  });

  it("another account's key cannot see or acknowledge them", async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    await createMonitor(sim, key);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const [n] = await notifications(sim, key);
    const account = (await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } })).body.account.id;
    const other = (await sim.json({ method: 'POST', url: `/sim/accounts/${account}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1', scopes: ['monitors:read', 'monitors:write'] } })).body.secret;
    expect(await notifications(sim, other)).toEqual([]);
    expect((await sim.json({ method: 'POST', url: `/v1/notifications/${n.id}/ack`, key: other })).status).toBe(404);
    expect((await notifications(sim, key))[0].acknowledgedAt).toBeNull();
  });
});

describe('chain scripts', () => {
  it("POST /sim/chains/scripts {name: 'demo-transfers'} schedules the fixture's logs and reorg as chain.script jobs", async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const monitor = await createMonitor(sim, key);
    const loaded = await sim.json({ method: 'POST', url: '/sim/chains/scripts', body: { name: 'demo-transfers' } });
    expect(loaded.status).toBe(201);
    expect(loaded.body).toEqual({ script: 'demo-transfers', scheduled: 5 });
    const advanced = await advance(sim, { seconds: 120 });
    const scriptJobs = advanced.processed.filter((j) => j.kind === 'chain.script');
    expect(scriptJobs.map((j) => j.at)).toEqual([at(20), at(50), at(80), at(110), at(114)]);
    const d = await detail(sim, key, monitor.id);
    // Four transfers reported, the last one retracted by the reorg, its replacement reported.
    expect(d.events.map((e: any) => [e.event.args.value, e.status])).toEqual([
      ['6000', 'active'],
      ['5000', 'retracted'],
      ['75000', 'active'],
      ['250000', 'active'],
      ['1000000', 'active'],
    ]);
    expect(d.retractedEvents).toHaveLength(1);
    expect((await notifications(sim, key)).map((n) => n.kind)).toEqual(['monitor.event', 'monitor.event.retracted', 'monitor.event', 'monitor.event', 'monitor.event', 'monitor.event']);
    // Nothing of the script is left to run.
    expect((await advance(sim, { seconds: 600 })).processed.filter((j) => j.kind === 'chain.script')).toEqual([]);
  });

  it('a loaded script holds one job at a time: entries run by due time (file order at a tie), each in its place among other jobs at that instant', async () => {
    const sim = await start();
    const deps = sim.sim.deps;
    const jobsOfKind = (kind: string) => deps.store.all('jobs').filter((j) => j.kind === kind);
    // A job put in the schedule before the script is loaded, due with two of its entries.
    transact(deps, (tx) => schedule(tx, 'test.marker', 'before', EPOCH_MS + 30_000));
    scheduleChainScript(deps, 'inline', {
      entries: [
        { afterSeconds: 60, chain: 'base', logs: [] },
        { afterSeconds: 30, chain: 'base', logs: [] },
        { afterSeconds: 30, chain: 'ethereum', logs: [] },
        { afterSeconds: 90, chain: 'base', logs: [] },
      ],
    });
    // And one put in after it, due with the first entry of the file.
    transact(deps, (tx) => schedule(tx, 'test.marker', 'after', EPOCH_MS + 60_000));
    expect(jobsOfKind('chain.script')).toHaveLength(1);
    const advanced = await advance(sim, { seconds: 120 });
    const ran = advanced.processed.filter((j) => j.kind !== 'monitor.tick').map((j) => `${j.ref.replace(/^inline:\d+:0*(\d)/, 'entry $1')} ${j.at}`);
    expect(ran).toEqual([`before ${at(30)}`, `entry 1 ${at(30)}`, `entry 2 ${at(30)}`, `entry 0 ${at(60)}`, `after ${at(60)}`, `entry 3 ${at(90)}`]);
    expect(jobsOfKind('chain.script')).toEqual([]);
    expect(deps.store.count('chainScriptEntries')).toBe(0);
  });

  it('an unknown script is 404 and a bad name 400', async () => {
    const sim = await start();
    expect((await sim.json({ method: 'POST', url: '/sim/chains/scripts', body: { name: 'no-such-script' } })).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: '/sim/chains/scripts', body: { name: '../etc/passwd' } })).status).toBe(400);
  });
});

describe('30-day fast-forward', () => {
  it('with 5 active monitors and a chain script, advancing 30 days completes with every monitor ended correctly', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const DAY = 86_400;
    const wide = await createMonitor(sim, key, { name: 'wide', windowBlocks: 2000, durationSeconds: 30 * DAY, tickBudget: 10_000, rpcBudget: 100_000 });
    const ticks = await createMonitor(sim, key, { name: 'ticks', windowBlocks: 25, durationSeconds: 30 * DAY, tickBudget: 100 });
    const reads = await createMonitor(sim, key, { name: 'reads', chain: 'ethereum', windowBlocks: 100, durationSeconds: 30 * DAY, rpcBudget: 10 });
    const short = await createMonitor(sim, key, { name: 'short', chain: 'chainx', windowBlocks: 50, durationSeconds: 10 * DAY });
    const fine = await createMonitor(sim, key, { name: 'fine', windowBlocks: 1, durationSeconds: 30 * DAY, tickBudget: 10_000, rpcBudget: 100_000 });
    expect((await sim.json({ method: 'POST', url: '/sim/chains/scripts', body: { name: 'demo-transfers' } })).status).toBe(201);

    const advanced = await advance(sim, { seconds: 30 * DAY });
    expect(advanced.now).toBe(at(30 * DAY));
    expect(advanced.processed.filter((j) => j.kind === 'chain.script')).toHaveLength(5);

    const read = async (m: { id: string }) => (await detail(sim, key, m.id)) as any;
    const w = await read(wide);
    expect(w.monitor).toMatchObject({ status: 'expired', statusReason: 'the monitor reached endsAt' });
    // 30 days of base in windows of 2000 blocks: 648 windows, one reads per window.
    expect(w.monitor.ticksUsed).toBe(648);
    expect(w.monitor.rpcUsed).toBe(648);
    // Its first window completed after the reorg: the replacement is seen, the removed log never was.
    expect(w.events.map((e: any) => e.event.args.value).sort()).toEqual(['1000000', '250000', '6000', '75000']);
    expect(w.retractedEvents).toEqual([]);

    const t = await read(ticks);
    expect(t.monitor).toMatchObject({ status: 'exhausted', statusReason: 'tickBudget used up', ticksUsed: 100, rpcUsed: 100 });
    const r = await read(reads);
    expect(r.monitor).toMatchObject({ status: 'exhausted', statusReason: 'rpcBudget used up', ticksUsed: 10, rpcUsed: 10 });
    const s = await read(short);
    expect(s.monitor).toMatchObject({ status: 'expired', endsAt: at(10 * DAY) });
    // 10 days of chainx (5 s blocks) in windows of 50: 3456 windows.
    expect(s.monitor.ticksUsed).toBe(3456);
    const f = await read(fine);
    expect(f.monitor).toMatchObject({ status: 'exhausted', statusReason: 'tickBudget used up', ticksUsed: 10_000 });
    expect(f.events.map((e: any) => [e.event.args.value, e.status])).toEqual([
      ['6000', 'active'],
      ['5000', 'retracted'],
      ['75000', 'active'],
      ['250000', 'active'],
      ['1000000', 'active'],
    ]);

    const status = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.status');
    expect(status.map((n) => n.monitorId).sort()).toEqual([wide.id, ticks.id, reads.id, short.id, fine.id].sort());
    // Nothing left scheduled for the monitors.
    const next = await advance(sim, { next: true });
    expect(next.processed.filter((j) => j.kind === 'monitor.tick')).toEqual([]);
  });
});
