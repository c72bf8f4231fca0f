import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { acceptOk, provision, quoteOk } from '../quotes/support.ts';
import { monitorBody } from '../monitors/support.ts';

/**
 * Many clients send `content-type: application/json` on every POST. A POST the
 * spec gives no body (cancel 4.7, stop and ack 4.13, and the bodyless /sim
 * actions) answers an empty body as it answers `{}`; a route that needs a
 * body says so by name.
 */

const JSON_TYPE = { 'content-type': 'application/json' };

let s: TestSimulator;
let eth: string;
let ethAccount: string;

beforeAll(async () => {
  s = await startSimulator();
  const demo = s.demo.find((d) => d.profile === 'local_custody')!;
  eth = demo.secret;
  ethAccount = demo.accountId;
});
afterAll(async () => s?.destroy());

/** POSTs with the JSON content type and an empty body. */
const emptyPost = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'POST', url, headers: { ...JSON_TYPE, ...headers }, payload: '' });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('bodyless /v1 POSTs with content-type: application/json and an empty body', () => {
  it('cancel a run: 200 with the run, then the same answer to {} (a repeat returns the current state)', async () => {
    const buyer = await provision(s, 'local_custody');
    const { run } = await acceptOk(s, buyer, await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const url = `/v1/runs/${run.id}/cancel`;
    const empty = await emptyPost(url, bearer(buyer.secret));
    expect(empty.statusCode, empty.body).toBe(200);
    expect(JSON.parse(empty.body).run.id).toBe(run.id);
    const braces = await s.json({ method: 'POST', url, key: buyer.secret, body: {} });
    expect(braces.status).toBe(200);
    expect(braces.body).toEqual(JSON.parse(empty.body));
  });

  it('stop a monitor and acknowledge a notification', async () => {
    const expiring = await s.json({ method: 'POST', url: '/v1/monitors', key: eth, body: monitorBody({ durationSeconds: 60 }) });
    expect(expiring.status, JSON.stringify(expiring.body)).toBe(201);
    expect((await s.json({ method: 'POST', url: '/sim/clock/advance', body: { seconds: 120 } })).status).toBe(200);
    const listed = await s.json({ url: '/v1/notifications', key: eth });
    expect(listed.body.notifications.length).toBeGreaterThan(0);
    const notification = listed.body.notifications[0];

    const acked = await emptyPost(`/v1/notifications/${notification.id}/ack`, bearer(eth));
    expect(acked.statusCode, acked.body).toBe(200);
    expect(JSON.parse(acked.body).notification.id).toBe(notification.id);

    const running = await s.json({ method: 'POST', url: '/v1/monitors', key: eth, body: monitorBody() });
    expect(running.status, JSON.stringify(running.body)).toBe(201);
    const stopped = await emptyPost(`/v1/monitors/${running.body.monitor.id}/stop`, bearer(eth));
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(JSON.parse(stopped.body).monitor.status).toBe('stopped');
  });

  it('a route that needs a body, given an empty one, names the body (invalid_input), not "not valid JSON"', async () => {
    for (const [url, headers] of [
      ['/v1/custody/quotes', bearer(eth)],
      ['/v1/monitors', bearer(eth)],
      ['/sim/accounts', {}],
    ] as const) {
      const refused = await emptyPost(url, headers);
      expect(refused.statusCode, url).toBe(400);
      const body = JSON.parse(refused.body);
      expect(body.error.code).toBe('invalid_input');
      expect(body.error.message).toMatch(/^body: /);
      expect(body.error.message).not.toContain('not valid JSON');
    }
    // A body that is present but not JSON is still "not valid JSON".
    const garbled = await s.app.inject({ method: 'POST', url: '/sim/accounts', headers: JSON_TYPE, payload: '{"type":' });
    expect(JSON.parse(garbled.body).error.message).toBe('body: the request body is not valid JSON.');
  });
});

describe('bodyless POSTs sent a body with fields, or not an object', () => {
  it('cancel, stop and ack refuse it with 400 naming the field, and change nothing', async () => {
    const buyer = await provision(s, 'local_custody');
    const { run } = await acceptOk(s, buyer, await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const cancel = await s.json({ method: 'POST', url: `/v1/runs/${run.id}/cancel`, key: buyer.secret, body: { reason: 'changed my mind' } });
    expect(cancel.status).toBe(400);
    expect(cancel.body).toEqual({ error: { code: 'invalid_input', message: 'body.reason: POST /v1/runs/:id/cancel takes no body (send none, or {}); got this field.' } });
    expect((await s.json({ url: `/v1/runs/${run.id}`, key: buyer.secret })).body.run.status).not.toBe('cancelled');

    const monitor = await s.json({ method: 'POST', url: '/v1/monitors', key: eth, body: monitorBody() });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    const stop = await s.json({ method: 'POST', url: `/v1/monitors/${monitor.body.monitor.id}/stop`, key: eth, body: { force: true, when: 'now' } });
    expect(stop.status).toBe(400);
    expect(stop.body.error.message).toBe('body.force: POST /v1/monitors/:id/stop takes no body (send none, or {}); got 2 fields: force, when.');
    expect((await s.json({ url: `/v1/monitors/${monitor.body.monitor.id}`, key: eth })).body.monitor.status).not.toBe('stopped');

    for (const [payload, got] of [['[]', 'an array'], ['null', 'null'], ['"stop"', 'a string'], ['0', 'a number']]) {
      const ack = await s.app.inject({ method: 'POST', url: '/v1/notifications/00000000-0000-4000-8000-000000000000/ack', headers: { ...JSON_TYPE, ...bearer(eth) }, payload });
      expect(ack.statusCode, payload).toBe(400);
      expect(JSON.parse(ack.body).error.message).toBe(`body: POST /v1/notifications/:id/ack takes no body (send none, or {}); got ${got}.`);
    }
  });

  it('the bodyless /sim actions refuse fields the same way', async () => {
    const destination = await s.json({ method: 'POST', url: `/sim/accounts/${ethAccount}/destinations`, body: { url: 'https://receiver.example/hook' } });
    const revoke = await s.json({ method: 'POST', url: `/sim/destinations/${destination.body.destination.id}/revoke`, body: { reason: 'x' } });
    expect(revoke.status).toBe(400);
    expect(revoke.body.error.message).toMatch(/^body\.reason: POST \/sim\/destinations\/:id\/revoke takes no body/);
    expect((await s.json({ url: `/sim/destinations/${destination.body.destination.id}` })).body.destination.state).not.toBe('revoked');
  });
});

describe('text/plain bodies', () => {
  it('get the declared 415, on routes with a body and bodyless ones, and change nothing', async () => {
    const monitorsBefore = (await s.json({ url: '/v1/monitors', key: eth })).body;
    for (const url of ['/v1/custody/quotes', '/v1/monitors', '/v1/runs/00000000-0000-4000-8000-000000000000/cancel']) {
      const plain = await s.app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain', ...bearer(eth) }, payload: JSON.stringify(monitorBody()) });
      expect(plain.statusCode, url).toBe(415);
      expect(JSON.parse(plain.body)).toEqual({ error: { code: 'invalid_input', message: 'content-type: requests with a body must be sent as application/json.' } });
    }
    expect((await s.json({ url: '/v1/monitors', key: eth })).body).toEqual(monitorsBefore);
  });
});

describe('bodyless /sim POSTs with content-type: application/json and an empty body', () => {
  it('key revoke, destination revoke and export expire answer as they do to {}', async () => {
    const key = await s.json({ method: 'POST', url: `/sim/accounts/${ethAccount}/keys`, body: { profile: 'local_custody', spendLimitAtomic: '1' } });
    expect(key.status).toBe(201);
    const revoked = await emptyPost(`/sim/keys/${key.body.key.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(JSON.parse(revoked.body).key.status).toBe('revoked');

    const destination = await s.json({ method: 'POST', url: `/sim/accounts/${ethAccount}/destinations`, body: { url: 'https://receiver.example/hook' } });
    expect(destination.status, JSON.stringify(destination.body)).toBe(201);
    const destinationRevoked = await emptyPost(`/sim/destinations/${destination.body.destination.id}/revoke`);
    expect(destinationRevoked.statusCode, destinationRevoked.body).toBe(200);

    // A run without a stored export: the same refusal either way, never a body error.
    const buyer = await provision(s, 'local_custody');
    const { run } = await acceptOk(s, buyer, await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID));
    const expireEmpty = await emptyPost(`/sim/runs/${run.id}/export/expire`);
    const expireBraces = await s.json({ method: 'POST', url: `/sim/runs/${run.id}/export/expire`, body: {} });
    expect(expireEmpty.statusCode).toBe(expireBraces.status);
    expect(JSON.parse(expireEmpty.body)).toEqual(expireBraces.body);
  });

  it('reset, whose body is optional, resets on an empty body', async () => {
    const reset = await emptyPost('/sim/reset');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(JSON.parse(reset.body)).toEqual({ ok: true });
  });
});
