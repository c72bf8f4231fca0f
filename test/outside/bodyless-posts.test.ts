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
