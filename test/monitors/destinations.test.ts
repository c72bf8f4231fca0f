import { describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
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
  nowSeconds,
  simDeliveries,
  start,
  startReceiver,
  subscribe,
  transfer,
  UUID,
  verify,
  waitFor,
} from './support.ts';

/** Webhook destinations (spec 3.8, 6.2): ownership challenge, limits, subscriptions, revocation. */

cleanupAfterEach();

describe('ownership challenge', () => {
  it('a receiver echoing the challenge makes the destination verified; the challenge is a signed POST in the delivery format', async () => {
    // Signed with the simulated clock (serve --webhook-time simulated), so its timestamp can be named; test/webhook/wall-clock-receiver.test.ts covers the default.
    const sim = await start({ webhookTime: 'simulated' });
    const { accountId } = ethKey(sim);
    const receiver = await startReceiver();
    const created = await createDestination(sim, accountId, receiver.url);
    expect(created.signingSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.destination).toMatchObject({ id: expect.stringMatching(UUID), url: receiver.url, kind: 'https', state: 'needs_verification', verificationAttempts: 0, verificationAttemptsLeft: 10, lastError: null, verifiedAt: null, revokedAt: null });
    expect(receiver.received).toEqual([]);

    await advance(sim, { seconds: 42 });
    const verified = await verify(sim, created.destination.id);
    expect(verified.status).toBe(200);
    expect(verified.body.destination).toMatchObject({ state: 'verified', verificationAttempts: 1, verificationAttemptsLeft: 9, lastError: null, verifiedAt: '2026-01-01T00:00:42.000Z' });

    expect(receiver.received).toHaveLength(1);
    const challenge = receiver.received[0];
    expect(challenge.method).toBe('POST');
    expect(challenge.url).toBe('/hooks');
    expect(Object.keys(challenge.json).sort()).toEqual(['challenge', 'destinationId', 'type']);
    expect(challenge.json).toEqual({ type: 'service.destination.verification', destinationId: created.destination.id, challenge: expect.stringMatching(/^[0-9a-f]+$/) });
    expect(challenge.headers['content-type']).toBe('application/json');
    expect(challenge.headers['user-agent']).toBe('service-destination/0.1');
    expect(challenge.headers['x-service-event-id']).toMatch(UUID);
    expect(challenge.headers['x-service-timestamp']).toBe(String(await nowSeconds(sim)));
    expect(challenge.headers['x-service-signature']).toBe(expectedSignature(created.signingSecret, String(challenge.headers['x-service-timestamp']), String(challenge.headers['x-service-event-id']), challenge.raw));

    // The delivery log records the verification attempt.
    const log = await simDeliveries(sim);
    expect(log.attempts).toEqual([expect.objectContaining({ purpose: 'verification', attempt: 1, outcome: 'delivered', status: 200, error: null, destinationId: created.destination.id, time: '2026-01-01T00:00:42.000Z' })]);
    expect(log.deliveries[0].id).toBe(challenge.headers['x-service-event-id']);

    // The signing secret is never shown again.
    const read = await sim.json({ url: `/sim/destinations/${created.destination.id}` });
    expect(JSON.stringify(read.body)).not.toContain(created.signingSecret);
    expect(read.body.destination.state).toBe('verified');
    // Verifying again is refused: it is verified already.
    expect((await verify(sim, created.destination.id)).status).toBe(409);
    expect(receiver.received).toHaveLength(1);
  });

  it.each([
    ['answers 200 without echoing', 'challenge-not-echoed', () => ({ status: 200, body: { ok: true } })],
    ['echoes another challenge', 'challenge-not-echoed', () => ({ status: 200, body: { challenge: 'deadbeef' } })],
    ['answers text', 'challenge-not-echoed', () => ({ status: 200, body: 'ok' })],
    ['answers 500', 'http-500', (r: any) => ({ status: 500, body: { challenge: r.json.challenge } })],
    ['redirects', 'redirect-not-followed', (r: any) => ({ status: 302, body: { challenge: r.json.challenge }, headers: { location: 'https://example.com/' } })],
  ])('a receiver that %s leaves it needs_verification with lastError %s', async (_name, error, respond) => {
    const sim = await start();
    const receiver = await startReceiver(respond as never);
    const { destination } = await createDestination(sim, ethKey(sim).accountId, receiver.url);
    const attempt = await verify(sim, destination.id);
    expect(attempt.status).toBe(200);
    expect(attempt.body.destination).toMatchObject({ state: 'needs_verification', lastError: error, verificationAttempts: 1, verifiedAt: null });
    expect(receiver.received).toHaveLength(1);
    expect((await destinationState(sim, destination.id)).state).toBe('needs_verification');
    // An unverified destination cannot be subscribed.
    const monitor = await createMonitor(sim, ethKey(sim).key);
    const refused = await subscribe(sim, monitor.id, destination.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/verified/);
  });

  it('allows 10 verification attempts; the 11th is refused without sending; a later echo within the 10 verifies', async () => {
    const sim = await start();
    let echo = false;
    const receiver = await startReceiver((r) => (echo ? { status: 200, body: { challenge: r.json.challenge } } : { status: 200, body: {} }));
    const { destination } = await createDestination(sim, ethKey(sim).accountId, receiver.url);
    for (let i = 1; i <= 10; i += 1) {
      const attempt = await verify(sim, destination.id);
      expect(attempt.status).toBe(200);
      expect(attempt.body.destination).toMatchObject({ state: 'needs_verification', verificationAttempts: i, verificationAttemptsLeft: 10 - i, lastError: 'challenge-not-echoed' });
    }
    const eleventh = await verify(sim, destination.id);
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.error.message).toMatch(/10 verification attempts/);
    expect(receiver.received).toHaveLength(10);
    // Every challenge was a fresh one.
    expect(new Set(receiver.received.map((r) => r.json.challenge)).size).toBe(10);

    const other = await createDestination(sim, ethKey(sim).accountId, receiver.url);
    for (let i = 0; i < 9; i += 1) await verify(sim, other.destination.id);
    echo = true;
    const tenth = await verify(sim, other.destination.id);
    expect(tenth.body.destination).toMatchObject({ state: 'verified', verificationAttempts: 10, lastError: null });
  });

  it('a metadata address is accepted as a URL but refused at connection: no request is made and it stays unverified', async () => {
    const sim = await start();
    const { accountId } = ethKey(sim);
    // In the test environment plain http is for loopback receivers only.
    const http = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url: 'http://169.254.169.254/' } });
    expect(http.status).toBe(400);
    expect(http.body.error.message).toMatch(/https/);
    const { destination } = await createDestination(sim, accountId, 'https://169.254.169.254/latest/meta-data');
    const attempt = await verify(sim, destination.id);
    expect(attempt.body.destination).toMatchObject({ state: 'needs_verification', lastError: 'metadata-address-refused' });
    const log = await simDeliveries(sim);
    expect(log.attempts).toEqual([expect.objectContaining({ purpose: 'verification', outcome: 'refused', status: null, error: 'metadata-address-refused' })]);
  });

  it('production refuses loopback receivers: http is refused outright and https to 127.0.0.1 is refused at connection', async () => {
    const sim = await start({ env: 'production' });
    const { accountId } = ethKey(sim);
    const receiver = await startReceiver();
    const http = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url: receiver.url } });
    expect(http.status).toBe(400);
    expect(http.body.error.message).toMatch(/must use https/);
    const port = new URL(receiver.url).port;
    for (const host of ['127.0.0.1', 'localhost', '10.0.0.7', '[::1]']) {
      const { destination } = await createDestination(sim, accountId, `https://${host}:${port}/hooks`);
      const attempt = await verify(sim, destination.id);
      expect(attempt.body.destination.state, host).toBe('needs_verification');
      expect(attempt.body.destination.lastError, host).toMatch(/-address-refused$/);
    }
    expect(receiver.received).toEqual([]);
  });

  it.each([
    ['a user name', 'https://user@hooks.example.com/x'],
    ['a password', 'https://user:pw@hooks.example.com/x'],
    ['a fragment', 'https://hooks.example.com/x#part'],
    ['no scheme', 'hooks.example.com/x'],
    ['ftp', 'ftp://hooks.example.com/x'],
    ['501 characters', `https://hooks.example.com/${'p'.repeat(475)}`],
  ])('a URL with %s is refused', async (_name, url) => {
    const sim = await start();
    const response = await sim.json({ method: 'POST', url: `/sim/accounts/${ethKey(sim).accountId}/destinations`, body: { url } });
    expect(response.status).toBe(400);
  });
});

describe('destination limits', () => {
  it('10 destinations that are not revoked per account; revoking one frees a place', async () => {
    const sim = await start();
    const { accountId } = ethKey(sim);
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) ids.push((await createDestination(sim, accountId, `https://hooks.example.com/${i}`)).destination.id);
    const eleventh = await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url: 'https://hooks.example.com/10' } });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.error.message).toMatch(/10 destinations/);
    expect((await sim.json({ method: 'POST', url: `/sim/destinations/${ids[3]}/revoke` })).status).toBe(200);
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url: 'https://hooks.example.com/10' } })).status).toBe(201);
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${accountId}/destinations`, body: { url: 'https://hooks.example.com/11' } })).status).toBe(409);
    // Another account has its own ten.
    const solana = sim.demo.find((d) => d.profile === 'solana_sol')!.accountId;
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${solana}/destinations`, body: { url: 'https://hooks.example.com/a' } })).status).toBe(201);
  });

  it('unknown accounts and destinations are 404', async () => {
    const sim = await start();
    const none = '00000000-0000-4000-8000-000000000000';
    expect((await sim.json({ method: 'POST', url: `/sim/accounts/${none}/destinations`, body: { url: 'https://hooks.example.com/' } })).status).toBe(404);
    expect((await sim.json({ url: `/sim/destinations/${none}` })).status).toBe(404);
    expect((await verify(sim, none)).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: `/sim/destinations/${none}/revoke` })).status).toBe(404);
  });
});

describe('subscriptions', () => {
  it('only verified destinations of the monitor owner can be subscribed; subscribing twice is the same subscription', async () => {
    const sim = await start();
    const { key, accountId, destination, monitor } = await deliverySetup(sim);
    const again = await subscribe(sim, monitor.id, destination.id);
    expect(again.status).toBe(201);
    expect(again.body.subscription).toMatchObject({ monitorId: monitor.id, destinationId: destination.id });
    expect((await detail(sim, key, monitor.id)).subscriptions).toEqual([{ destinationId: destination.id, createdAt: expect.any(String) }]);

    const pending = await createDestination(sim, accountId, 'https://hooks.example.com/pending');
    expect((await subscribe(sim, monitor.id, pending.destination.id)).status).toBe(409);

    const solana = sim.demo.find((d) => d.profile === 'solana_sol')!.accountId;
    const receiver = await startReceiver();
    const foreign = await createDestination(sim, solana, receiver.url);
    expect((await verify(sim, foreign.destination.id)).body.destination.state).toBe('verified');
    expect((await subscribe(sim, monitor.id, foreign.destination.id)).status).toBe(404);
    expect((await subscribe(sim, '00000000-0000-4000-8000-000000000000', destination.id)).status).toBe(404);
    expect((await sim.json({ method: 'POST', url: `/sim/monitors/${monitor.id}/subscriptions`, body: { destinationId: 'nope' } })).status).toBe(400);
  });

  it('unsubscribing stops deliveries to that destination; unsubscribing again is 404', async () => {
    const sim = await start();
    const { key, receiver, destination, monitor } = await deliverySetup(sim);
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    expect(receiver.deliveries()).toHaveLength(1);
    const removed = await sim.json({ method: 'DELETE', url: `/sim/monitors/${monitor.id}/subscriptions/${destination.id}` });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true, cancelledDeliveries: 0 });
    await mine(sim, 'base', [transfer(ALICE, BOB, '2')]);
    await advance(sim, { seconds: 60 });
    expect(receiver.deliveries()).toHaveLength(1);
    expect((await detail(sim, key, monitor.id)).events).toHaveLength(2);
    expect((await sim.json({ method: 'DELETE', url: `/sim/monitors/${monitor.id}/subscriptions/${destination.id}` })).status).toBe(404);
  });
});

describe('revocation', () => {
  it('is irreversible and cancels pending deliveries and subscriptions at once', async () => {
    const sim = await start();
    const { key, receiver, destination, monitor } = await deliverySetup(sim, echoThen(500));
    await mine(sim, 'base', [transfer(ALICE, BOB, '1')]);
    expect(receiver.deliveries()).toHaveLength(1);
    let log = await simDeliveries(sim);
    const pending = log.deliveries.find((d) => d.purpose === 'delivery');
    expect(pending).toMatchObject({ state: 'pending', destinationId: destination.id, nextAttemptAt: '2026-01-01T00:00:05.000Z' });

    await advance(sim, { seconds: 2 });
    const revoked = await sim.json({ method: 'POST', url: `/sim/destinations/${destination.id}/revoke` });
    expect(revoked.status).toBe(200);
    expect(revoked.body.destination).toMatchObject({ state: 'revoked', revokedAt: '2026-01-01T00:00:02.000Z' });
    log = await simDeliveries(sim);
    expect(log.deliveries.find((d) => d.id === pending.id)).toMatchObject({ state: 'cancelled', nextAttemptAt: null });
    expect((await detail(sim, key, monitor.id)).subscriptions).toEqual([]);

    const advanced = await advance(sim, { seconds: 120 });
    expect(advanced.processed.filter((j) => j.kind === 'delivery.attempt')).toEqual([]);
    expect(receiver.deliveries()).toHaveLength(1);

    // Irreversible: revoking again changes nothing; it cannot be verified or subscribed again.
    const again = await sim.json({ method: 'POST', url: `/sim/destinations/${destination.id}/revoke` });
    expect(again.body).toEqual(revoked.body);
    expect((await verify(sim, destination.id)).status).toBe(409);
    expect((await subscribe(sim, monitor.id, destination.id)).status).toBe(409);
    // New events reach no one; a cancelled delivery is not a failure notification.
    await mine(sim, 'base', [transfer(ALICE, BOB, '2')]);
    await waitFor(async () => (await detail(sim, key, monitor.id)).events.length === 2, 'the second event');
    expect(receiver.deliveries()).toHaveLength(1);
    const kinds = (await sim.json({ url: '/v1/notifications', key })).body.notifications.map((n: any) => n.kind);
    expect(kinds).not.toContain('monitor.delivery.failed');
    expect((await destinationState(sim, destination.id)).state).toBe('revoked');
  });
});
