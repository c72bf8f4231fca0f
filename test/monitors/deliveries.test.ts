import { describe, expect, it } from 'vitest';
import { verifyDelivery } from '../../src/webhook/verify.ts';
import {
  ALICE,
  BOB,
  EPOCH_S,
  advance,
  cleanupAfterEach,
  createDestination,
  createMonitor,
  deliverySetup,
  destinationState,
  detail,
  echoThen,
  ethKey,
  expectedSignature,
  mine,
  notifications,
  simDeliveries,
  start,
  startReceiver,
  subscribe,
  transfer,
  UUID,
  verify,
  waitFor,
  type Answer,
  type Received,
} from './support.ts';

/** Signed webhook deliveries (spec 2.15, 6.2) to a real loopback receiver. */

cleanupAfterEach();

const at = (seconds: number) => new Date((EPOCH_S + seconds) * 1000).toISOString();
const BODY_FIELDS = ['blockHash', 'blockNumber', 'chain', 'event', 'eventId', 'explanation', 'fields', 'logIndex', 'monitorId', 'monitorName', 'observedAt', 'ruleId', 'status', 'transactionHash', 'type'];

function expectSigned(r: Received, secret: string): void {
  const timestamp = String(r.headers['x-service-timestamp']);
  const eventId = String(r.headers['x-service-event-id']);
  expect(r.headers['x-service-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  expect(r.headers['x-service-signature']).toBe(expectedSignature(secret, timestamp, eventId, r.raw));
}

describe('a delivery', () => {
  it('carries exactly the headers of 6.2, signed with the destination secret, and the body fields of 2.15', async () => {
    // Signed with the simulated clock (serve --webhook-time simulated), so its timestamp can be named; test/webhook/wall-clock-receiver.test.ts covers the default.
    const sim = await start({ webhookTime: 'simulated' });
    await advance(sim, { seconds: 7 });
    const { key, receiver, signingSecret, monitor } = await deliverySetup(sim);
    const mined = await mine(sim, 'base', [transfer(ALICE, BOB, '12345')]);
    const [r] = await waitFor(() => (receiver.deliveries().length === 1 ? receiver.deliveries() : null), 'one delivery');

    expect(r.method).toBe('POST');
    expect(r.url).toBe('/hooks');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('service-destination/0.1');
    expect(r.headers['x-service-event-id']).toMatch(UUID);
    expect(r.headers['x-service-timestamp']).toBe(String(EPOCH_S + 7));
    expect(r.headers['x-service-timestamp']).toMatch(/^[0-9]{1,12}$/);
    expect(Object.keys(r.headers).filter((h) => h.startsWith('x-')).sort()).toEqual(['x-service-event-id', 'x-service-signature', 'x-service-timestamp']);
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.raw));
    expectSigned(r, signingSecret);
    // Another secret or a changed body does not verify.
    expect(r.headers['x-service-signature']).not.toBe(expectedSignature(`${signingSecret}x`, String(r.headers['x-service-timestamp']), String(r.headers['x-service-event-id']), r.raw));
    expect(r.headers['x-service-signature']).not.toBe(expectedSignature(signingSecret, String(r.headers['x-service-timestamp']), String(r.headers['x-service-event-id']), `${r.raw} `));

    const d = await detail(sim, key, monitor.id);
    const event = d.events[0];
    expect(Object.keys(r.json).sort()).toEqual(BODY_FIELDS);
    expect(r.json).toEqual({
      type: 'monitor.event',
      eventId: event.id,
      monitorId: monitor.id,
      monitorName: monitor.name,
      chain: 'base',
      ruleId: 'transfers',
      event: { name: 'Transfer', address: mined.logs[0].address, args: { from: ALICE, to: BOB, value: '12345' } },
      explanation: event.explanation,
      fields: event.fields,
      blockNumber: mined.blocks[0].number,
      blockHash: mined.blocks[0].hash,
      transactionHash: mined.logs[0].transactionHash,
      logIndex: 0,
      status: 'active',
      observedAt: at(7),
    });
    expect(r.json.eventId).toMatch(UUID);
    expect(typeof r.json.blockNumber).toBe('string');

    // The delivery id is the header's event id; the monitor detail and the delivery log show it.
    expect(d.deliveries).toEqual([expect.objectContaining({ id: r.headers['x-service-event-id'], purpose: 'delivery', type: 'monitor.event', state: 'delivered', monitorEventId: event.id, attempts: [{ at: at(7), attempt: 1, outcome: 'delivered', httpStatus: 200, error: null }] })]);
    expect(d.deliveryLog).toEqual([expect.objectContaining({ deliveryId: r.headers['x-service-event-id'], purpose: 'delivery', attempt: 1, outcome: 'delivered' })]);
    // The reference receiver check agrees, on the simulated clock.
    const verdict = verifyDelivery(r.headers, r.raw, { secret: signingSecret, nowSeconds: EPOCH_S + 7 });
    expect(verdict).toMatchObject({ ok: true, isChallenge: false, duplicate: false });
  });

  it('each subscribed destination gets its own delivery, signed with its own secret', async () => {
    const sim = await start();
    const { key, receiver, signingSecret, monitor, accountId } = await deliverySetup(sim);
    const second = await startReceiver();
    const other = await createDestination(sim, accountId, second.url);
    expect((await verify(sim, other.destination.id)).body.destination.state).toBe('verified');
    expect((await subscribe(sim, monitor.id, other.destination.id)).status).toBe(201);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const [a] = receiver.deliveries();
    const [b] = second.deliveries();
    expectSigned(a, signingSecret);
    expectSigned(b, other.signingSecret);
    expect(a.headers['x-service-event-id']).not.toBe(b.headers['x-service-event-id']);
    expect(a.raw).toBe(b.raw);
    expect((await detail(sim, key, monitor.id)).deliveries).toHaveLength(2);
  });

  it("a monitor's own webhookUrl (test environment, loopback receiver) is signed with its webhookSecret", async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const receiver = await startReceiver();
    const created = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: { name: 'own hook', chain: 'base', rules: [{ id: 'transfers', type: 'erc20-transfer', token: `0x${'a1'.repeat(20)}` }], durationSeconds: 600, tickBudget: 100, rpcBudget: 100, idempotencyKey: 'own-hook-1', windowBlocks: 1, webhookUrl: receiver.url } });
    expect(created.status).toBe(201);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const [r] = await waitFor(() => (receiver.deliveries().length === 1 ? receiver.deliveries() : null), 'the delivery');
    expectSigned(r, created.body.webhookSecret);
    expect(r.json).toMatchObject({ type: 'monitor.event', monitorId: created.body.monitor.id, monitorName: 'own hook' });
    expect((await detail(sim, key, created.body.monitor.id)).deliveries[0]).toMatchObject({ webhookUrl: receiver.url, destinationId: null, state: 'delivered' });
  });
});

describe('retries', () => {
  it('a receiver answering 500: attempts at t, t+5, t+15, t+35, t+75 with the same event id and fresh timestamps, then a final failure and a monitor.delivery.failed notification', async () => {
    const sim = await start({ webhookTime: 'simulated' });
    await advance(sim, { seconds: 100 });
    const t = 100;
    const { key, receiver, signingSecret, monitor, destination } = await deliverySetup(sim, echoThen(500));
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    expect(receiver.deliveries()).toHaveLength(1);

    // To the second: nothing at t+4, the second attempt at t+5.
    await advance(sim, { seconds: 4 });
    expect(receiver.deliveries()).toHaveLength(1);
    const fifth = await advance(sim, { seconds: 1 });
    expect(fifth.processed.filter((j) => j.kind === 'delivery.attempt').map((j) => j.at)).toEqual([at(t + 5)]);
    expect(receiver.deliveries()).toHaveLength(2);
    await advance(sim, { seconds: 9 });
    expect(receiver.deliveries()).toHaveLength(2);
    const rest = await advance(sim, { seconds: 200 });
    expect(rest.processed.filter((j) => j.kind === 'delivery.attempt').map((j) => j.at)).toEqual([at(t + 15), at(t + 35), at(t + 75)]);

    const got = receiver.deliveries();
    expect(got).toHaveLength(5);
    expect(got.map((r) => Number(r.headers['x-service-timestamp']) - EPOCH_S)).toEqual([t, t + 5, t + 15, t + 35, t + 75]);
    expect(new Set(got.map((r) => r.headers['x-service-event-id'])).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['x-service-signature'])).size).toBe(5);
    expect(new Set(got.map((r) => r.raw)).size).toBe(1);
    for (const r of got) expectSigned(r, signingSecret);

    const log = await simDeliveries(sim);
    const attempts = log.attempts.filter((a) => a.purpose === 'delivery');
    expect(attempts.map((a) => [a.time, a.attempt, a.outcome, a.status, a.error])).toEqual([
      [at(t), 1, 'failed', 500, 'http-500'],
      [at(t + 5), 2, 'failed', 500, 'http-500'],
      [at(t + 15), 3, 'failed', 500, 'http-500'],
      [at(t + 35), 4, 'failed', 500, 'http-500'],
      [at(t + 75), 5, 'failed', 500, 'http-500'],
    ]);
    const delivery = log.deliveries.find((d) => d.purpose === 'delivery');
    expect(delivery).toMatchObject({ id: got[0].headers['x-service-event-id'], state: 'failed', nextAttemptAt: null });

    const failed = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.delivery.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ monitorId: monitor.id, createdAt: at(t + 75), event: { deliveryId: delivery.id, destinationId: destination.id, lastError: 'http-500' } });
    // One final failure is not yet failing.
    expect((await destinationState(sim, destination.id))).toMatchObject({ state: 'verified', consecutiveFailures: 1 });
    // Nothing more is ever sent.
    expect((await advance(sim, { seconds: 3600 })).processed.filter((j) => j.kind === 'delivery.attempt')).toEqual([]);
    expect(receiver.deliveries()).toHaveLength(5);
  });

  it('a receiver that recovers: delivered on the third attempt, no failure notification', async () => {
    const sim = await start();
    let failuresLeft = 2;
    const { key, receiver, destination } = await deliverySetup(sim, (r) => {
      if (r.json?.type === 'service.destination.verification') return { status: 200, body: { challenge: r.json.challenge } };
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return { status: 503 };
      }
      return { status: 204 };
    });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    await advance(sim, { seconds: 60 });
    expect(receiver.deliveries()).toHaveLength(3);
    const log = await simDeliveries(sim);
    expect(log.attempts.filter((a) => a.purpose === 'delivery').map((a) => [a.time, a.outcome, a.status])).toEqual([
      [at(0), 'failed', 503],
      [at(5), 'failed', 503],
      [at(15), 'delivered', 204],
    ]);
    expect((await notifications(sim, key)).map((n) => n.kind)).toEqual(['monitor.event']);
    expect((await destinationState(sim, destination.id)).consecutiveFailures).toBe(0);
  });

  it('a receiver that does not answer within 5 s: the attempt fails with a timeout and is retried', async () => {
    const sim = await start();
    let hung = false;
    const { receiver } = await deliverySetup(sim, (r) => {
      if (r.json?.type === 'service.destination.verification') return { status: 200, body: { challenge: r.json.challenge } };
      if (!hung) {
        hung = true;
        return 'hang';
      }
      return { status: 200, body: {} };
    });
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    let log = await simDeliveries(sim);
    expect(log.attempts.filter((a) => a.purpose === 'delivery')).toEqual([expect.objectContaining({ attempt: 1, outcome: 'failed', status: null, error: 'timeout' })]);
    await advance(sim, { seconds: 5 });
    expect(receiver.deliveries()).toHaveLength(2);
    log = await simDeliveries(sim);
    expect(log.deliveries.find((d) => d.purpose === 'delivery').state).toBe('delivered');
  });

  it('a 3xx answer is a failed delivery at once: one attempt, the redirect not followed, no retries', async () => {
    const sim = await start();
    const target = await startReceiver();
    const { key, receiver } = await deliverySetup(sim, echoThen(302, { location: target.url }));
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const advanced = await advance(sim, { seconds: 300 });
    expect(advanced.processed.filter((j) => j.kind === 'delivery.attempt')).toEqual([]);
    expect(receiver.deliveries()).toHaveLength(1);
    expect(target.received).toEqual([]);
    const log = await simDeliveries(sim);
    expect(log.attempts.filter((a) => a.purpose === 'delivery').map((a) => [a.attempt, a.outcome, a.status, a.error])).toEqual([[1, 'failed', 302, 'redirect-not-followed']]);
    expect(log.deliveries.find((d) => d.purpose === 'delivery').state).toBe('failed');
    const failed = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.delivery.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].event.lastError).toBe('redirect-not-followed');
  });

  it('a refused address fails the delivery at once, without connecting and without retries', async () => {
    const sim = await start();
    const { key } = ethKey(sim);
    const created = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: { name: 'metadata hook', chain: 'base', rules: [{ id: 'transfers', type: 'erc20-transfer', token: `0x${'a1'.repeat(20)}` }], durationSeconds: 600, tickBudget: 100, rpcBudget: 100, idempotencyKey: 'metadata-hook', windowBlocks: 1, webhookUrl: 'https://169.254.169.254/latest' } });
    expect(created.status).toBe(201);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const advanced = await advance(sim, { seconds: 300 });
    expect(advanced.processed.filter((j) => j.kind === 'delivery.attempt')).toEqual([]);
    const d = await detail(sim, key, created.body.monitor.id);
    expect(d.deliveries).toEqual([expect.objectContaining({ state: 'failed', attempts: [{ at: at(0), attempt: 1, outcome: 'refused', httpStatus: null, error: 'metadata-address-refused' }] })]);
    const failed = (await notifications(sim, key)).filter((n) => n.kind === 'monitor.delivery.failed');
    expect(failed.map((n) => n.event.lastError)).toEqual(['metadata-address-refused']);
  });
});

describe('destination health', () => {
  it('3 final failures in a row make a verified destination failing; it still receives deliveries and the next success makes it verified again', async () => {
    const sim = await start();
    let status = 302;
    const { key, receiver, destination, monitor } = await deliverySetup(sim, (r): Answer => {
      if (r.json?.type === 'service.destination.verification') return { status: 200, body: { challenge: r.json.challenge } };
      return status === 302 ? { status, headers: { location: 'https://example.com/' } } : { status };
    });
    const event = async (value: string) => {
      const before = receiver.deliveries().length;
      await mine(sim, 'base', [transfer(ALICE, BOB, value)]);
      await waitFor(() => receiver.deliveries().length === before + 1, `delivery of ${value}`);
      return destinationState(sim, destination.id);
    };
    expect(await event('1')).toMatchObject({ state: 'verified', consecutiveFailures: 1 });
    expect(await event('2')).toMatchObject({ state: 'verified', consecutiveFailures: 2 });
    status = 200;
    // A success in between resets the run.
    expect(await event('3')).toMatchObject({ state: 'verified', consecutiveFailures: 0 });
    status = 302;
    expect(await event('4')).toMatchObject({ state: 'verified', consecutiveFailures: 1 });
    expect(await event('5')).toMatchObject({ state: 'verified', consecutiveFailures: 2 });
    expect(await event('6')).toMatchObject({ state: 'failing', consecutiveFailures: 3 });
    expect(await event('7')).toMatchObject({ state: 'failing', consecutiveFailures: 4 });
    // A failing destination cannot be newly subscribed to another monitor.
    const another = await createMonitor(sim, key);
    expect((await subscribe(sim, another.id, destination.id)).status).toBe(409);
    status = 200;
    expect(await event('8')).toMatchObject({ state: 'verified', consecutiveFailures: 0 });
    expect((await notifications(sim, key)).filter((n) => n.kind === 'monitor.delivery.failed' && n.monitorId === monitor.id)).toHaveLength(6);
    expect((await subscribe(sim, another.id, destination.id)).status).toBe(201);
  });
});

describe('unsubscribing', () => {
  it('cancels the pending deliveries of that monitor and destination at once', async () => {
    const sim = await start();
    const { key, receiver, destination, monitor } = await deliverySetup(sim, echoThen(500));
    await mine(sim, 'base', [transfer(ALICE, BOB, '1'), transfer(ALICE, BOB, '2')]);
    expect(receiver.deliveries()).toHaveLength(2);
    await advance(sim, { seconds: 5 });
    expect(receiver.deliveries()).toHaveLength(4);
    const removed = await sim.json({ method: 'DELETE', url: `/sim/monitors/${monitor.id}/subscriptions/${destination.id}` });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true, cancelledDeliveries: 2 });
    const d = await detail(sim, key, monitor.id);
    expect(d.deliveries.map((x: any) => [x.state, x.nextAttemptAt, x.attempts.length])).toEqual([
      ['cancelled', null, 2],
      ['cancelled', null, 2],
    ]);
    const advanced = await advance(sim, { seconds: 600 });
    expect(advanced.processed.filter((j) => j.kind === 'delivery.attempt')).toEqual([]);
    expect(receiver.deliveries()).toHaveLength(4);
    expect((await notifications(sim, key)).map((n) => n.kind)).not.toContain('monitor.delivery.failed');
    expect((await destinationState(sim, destination.id))).toMatchObject({ state: 'verified', consecutiveFailures: 0 });
  });

  it('leaves the deliveries of other destinations running', async () => {
    const sim = await start();
    const { receiver, destination, monitor, accountId } = await deliverySetup(sim, echoThen(500));
    const second = await startReceiver(echoThen(500));
    const other = await createDestination(sim, accountId, second.url);
    await verify(sim, other.destination.id);
    await subscribe(sim, monitor.id, other.destination.id);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    const removed = await sim.json({ method: 'DELETE', url: `/sim/monitors/${monitor.id}/subscriptions/${destination.id}` });
    expect(removed.body.cancelledDeliveries).toBe(1);
    await advance(sim, { seconds: 100 });
    expect(receiver.deliveries()).toHaveLength(1);
    expect(second.deliveries()).toHaveLength(5);
  });
});
