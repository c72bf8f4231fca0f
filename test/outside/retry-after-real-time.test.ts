import { describe, expect, it } from 'vitest';
import type { TestSimulator } from '../helpers/simulator.ts';
import { advance, clockNow, createAccount, createKey, simulatorsPerTest } from '../foundation/support.ts';
import { ethKey, monitorBody } from '../monitors/support.ts';
import { validateScenario } from '../../src/scenario/validate.ts';
import { runScenario } from '../../src/scenario/runner.ts';
import { jsonTranscript, textTranscript } from '../../src/scenario/transcript.ts';

/**
 * Issue 13, point 6: a client that honours Retry-After by waiting in real time
 * gets through, on a frozen clock as on a realtime one, while scenario runs
 * stay byte-deterministic (docs/decisions.md, Limits).
 */

const start = simulatorsPerTest();

/** Real time the test moves by hand, in place of waiting it out. */
function handMovedRealTime() {
  let ms = 0;
  return {
    now: () => ms,
    pass(seconds: number) {
      ms += seconds * 1000;
    },
  };
}

/** A key allowed `perMinute` requests a minute. */
async function slowKey(sim: TestSimulator, perMinute: number): Promise<string> {
  const account = await createAccount(sim, 'solana');
  return (await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', rateLimitPerMinute: perMinute })).secret;
}

const keyRead = (sim: TestSimulator, secret: string) => sim.json({ url: '/v1/buyer/key', key: secret });

async function expectRefused(sim: TestSimulator, secret: string, retryAfter: string): Promise<void> {
  const refused = await keyRead(sim, secret);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ error: { code: 'request_rejected', message: 'This API key exceeded its request rate limit. Try again shortly.' } });
  expect(refused.headers['retry-after']).toBe(retryAfter);
}

/** Refused as rate-limited: the Retry-After seconds. */
async function refusedFor(sim: TestSimulator, secret: string): Promise<number> {
  const refused = await keyRead(sim, secret);
  expect(refused.status).toBe(429);
  expect(refused.body.error.message).toBe('This API key exceeded its request rate limit. Try again shortly.');
  return Number(refused.headers['retry-after']);
}

describe('Retry-After waited out in real time', () => {
  it('frozen clock: the key is refused, then served once Retry-After seconds of real time pass, with no clock advance', async () => {
    const real = handMovedRealTime();
    const sim = await start({ clock: 'frozen', limits: true, realTime: real.now });
    const secret = await slowKey(sim, 2);
    const frozenAt = await clockNow(sim);
    for (let i = 0; i < 2; i += 1) expect((await keyRead(sim, secret)).status).toBe(200);
    await expectRefused(sim, secret, '60');
    real.pass(59);
    await expectRefused(sim, secret, '1');
    real.pass(1);
    const served = await keyRead(sim, secret);
    expect(served.status).toBe(200);
    // Refused requests were not counted, and simulated time never moved.
    expect(served.body.key.requestsLast24h).toBe(3);
    expect(await clockNow(sim)).toBe(frozenAt);
  });

  it('frozen clock: advances and real waits add up, and Retry-After is what is left of the minute', async () => {
    const real = handMovedRealTime();
    const sim = await start({ clock: 'frozen', limits: true, realTime: real.now });
    const secret = await slowKey(sim, 1);
    expect((await keyRead(sim, secret)).status).toBe(200);
    await expectRefused(sim, secret, '60');
    await advance(sim, { seconds: 20 });
    await expectRefused(sim, secret, '40');
    real.pass(15);
    await expectRefused(sim, secret, '25');
    real.pass(25);
    expect((await keyRead(sim, secret)).status).toBe(200);
    await expectRefused(sim, secret, '60');
  });

  it('realtime clock: served after Retry-After seconds of real time, the offset an advance adds counting too', async () => {
    const real = handMovedRealTime();
    const sim = await start({ clock: 'realtime', limits: true, realTime: real.now });
    const secret = await slowKey(sim, 2);
    for (let i = 0; i < 2; i += 1) expect((await keyRead(sim, secret)).status).toBe(200);
    // On a realtime clock a request's instant is read from the wall clock in whole
    // milliseconds while real time is finer, so a figure may round up by a second:
    // never down, which is what makes waiting it out enough.
    const first = await refusedFor(sim, secret);
    expect([60, 61]).toContain(first);
    await advance(sim, { seconds: 20 });
    const left = await refusedFor(sim, secret);
    expect([40, 41]).toContain(left);
    real.pass(left - 2);
    expect(await refusedFor(sim, secret)).toBeLessThanOrEqual(3);
    real.pass(2);
    // Waited out: served, unless the two wall readings straddle a millisecond and leave one
    // millisecond of the minute, which the answer then rounds up to one second.
    const waited = await keyRead(sim, secret);
    if (waited.status !== 200) {
      expect(waited.status).toBe(429);
      expect(waited.headers['retry-after']).toBe('1');
      real.pass(1);
      expect((await keyRead(sim, secret)).status).toBe(200);
    }
  });

  it('monitor creation (counted at the request’s pinned instant): the 11th is refused, and served after its Retry-After in real time', async () => {
    const real = handMovedRealTime();
    const sim = await start({ clock: 'frozen', limits: true, realTime: real.now });
    const { key } = ethKey(sim);
    for (let i = 0; i < 10; i += 1) {
      const created = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() });
      expect(created.status, `creation ${i + 1}`).toBe(201);
      // Stopped at once so the five-active limit never answers instead.
      expect((await sim.json({ method: 'POST', url: `/v1/monitors/${created.body.monitor.id}/stop`, key })).status).toBe(200);
    }
    const eleventh = await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ error: { code: 'request_rejected', message: 'Too many requests. Try again shortly.' } });
    expect(eleventh.headers['retry-after']).toBe('60');
    real.pass(60);
    expect((await sim.json({ method: 'POST', url: '/v1/monitors', key, body: monitorBody() })).status).toBe(201);
  });

  it('a snapshot import takes the clock back an hour and empties the windows: the key is served, and refused again a full minute', async () => {
    const real = handMovedRealTime();
    const sim = await start({ clock: 'frozen', limits: true, realTime: real.now });
    const secret = await slowKey(sim, 1);
    const exported = await sim.request({ url: '/sim/snapshot' });
    expect(exported.statusCode).toBe(200);
    await advance(sim, { seconds: 3600 });
    expect((await keyRead(sim, secret)).status).toBe(200);
    await expectRefused(sim, secret, '60');
    const imported = await sim.request({ method: 'PUT', url: '/sim/snapshot', body: exported.body, headers: { 'content-type': 'application/json' } });
    expect(imported.statusCode, imported.body).toBe(200);
    expect((await keyRead(sim, secret)).status).toBe(200);
    await expectRefused(sim, secret, '60');
  });

  it('a real wait of Retry-After seconds (at most 2) gets through on a frozen clock with the default real time', async () => {
    const sim = await start({ clock: 'frozen', limits: true });
    const secret = await slowKey(sim, 1);
    expect((await keyRead(sim, secret)).status).toBe(200);
    // 58 s of simulated time leave 2 s of the minute, less the real time these calls take.
    await advance(sim, { seconds: 58 });
    const refused = await keyRead(sim, secret);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect([1, 2]).toContain(retryAfter);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await keyRead(sim, secret)).status).toBe(200);
  });
});

describe('scenario runs stand still in real time', () => {
  // 59.999 s after a request its key is still refused: any real time leaking
  // into the windows (these HTTP round trips take more than a millisecond) would let it through.
  const scenario = validateScenario(
    {
      name: 'retry-after-real-time',
      seed: 6,
      limits: 'on',
      accounts: { acme: { type: 'solana', keys: { slow: { profile: 'solana_sol', spendLimitAtomic: '1', rateLimitPerMinute: 1 } } } },
      steps: [
        { call: { method: 'GET', path: '/v1/buyer/key', key: 'slow' }, expect: { status: 200 } },
        { call: { method: 'GET', path: '/v1/buyer/key', key: 'slow' }, expect: { status: 429, header: { 'retry-after': '60' } } },
        { advance: { seconds: 59.999 } },
        { call: { method: 'GET', path: '/v1/buyer/key', key: 'slow' }, expect: { status: 429, header: { 'retry-after': '1' } } },
        { advance: { seconds: 0.001 } },
        { call: { method: 'GET', path: '/v1/buyer/key', key: 'slow' }, expect: { status: 200 } },
      ],
    },
    'retry-after-real-time.json',
  );

  it('the windows follow the advances only, and two runs give byte-identical transcripts', async () => {
    const first = await runScenario(scenario, 'retry-after-real-time.json');
    expect(first.passed, textTranscript(first)).toBe(true);
    const second = await runScenario(scenario, 'retry-after-real-time.json');
    expect(textTranscript(second)).toBe(textTranscript(first));
    expect(JSON.stringify(jsonTranscript(second))).toBe(JSON.stringify(jsonTranscript(first)));
  });
});
