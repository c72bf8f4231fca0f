import { describe, expect, it } from 'vitest';
import { createClock } from '../../sim/runtime/clock.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { advance, clockNow, createAccount, createKey, DAY_MS, DAY_S, EPOCH_MS, simulatorsPerTest, tempDir, UNAUTHENTICATED, waitFor } from './support.ts';

const start = simulatorsPerTest();

const iso = (ms: number) => new Date(ms).toISOString();

describe('frozen clock', () => {
  it('starts at the epoch and does not move by itself or with requests', async () => {
    const sim = await start({ demo: false });
    const first = await sim.json({ url: '/sim/clock' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ now: iso(EPOCH_MS), mode: 'frozen' });
    const wallStart = Date.now();
    await createAccount(sim, 'solana');
    await sim.json({ url: '/v1/capabilities' });
    await waitFor(() => Date.now() - wallStart >= 30, 'wall time to pass');
    expect(await clockNow(sim)).toBe(iso(EPOCH_MS));
  });

  it('advances by seconds, answering { now, processed }', async () => {
    const sim = await start({ demo: false });
    const answer = await advance(sim, { seconds: 90 });
    expect(answer).toEqual({ now: iso(EPOCH_MS + 90_000), processed: [] });
    expect(await clockNow(sim)).toBe(iso(EPOCH_MS + 90_000));
    const fractional = await advance(sim, { seconds: 0.5 });
    expect(fractional.now).toBe(iso(EPOCH_MS + 90_500));
  });

  it('refuses a negative or malformed advance with 400 invalid_input', async () => {
    const sim = await start({ demo: false });
    for (const body of [{ seconds: -1 }, { seconds: '5' }, {}, { next: false }, { to: 'tomorrow' }, { seconds: 1, to: iso(EPOCH_MS) }]) {
      const response = await sim.json({ method: 'POST', url: '/sim/clock/advance', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_input');
    }
    expect(await clockNow(sim)).toBe(iso(EPOCH_MS));
  });

  it('advances to an instant; an instant in the past is 400 invalid_input and changes nothing', async () => {
    const sim = await start({ demo: false });
    const target = EPOCH_MS + 3_600_000;
    expect(await advance(sim, { to: iso(target) })).toEqual({ now: iso(target), processed: [] });
    // The same instant again is allowed (no move).
    expect((await advance(sim, { to: iso(target) })).now).toBe(iso(target));
    const past = await sim.json({ method: 'POST', url: '/sim/clock/advance', body: { to: iso(target - 1000) } });
    expect(past.status).toBe(400);
    expect(past.body.error.code).toBe('invalid_input');
    expect(past.body.error.message).toContain('to');
    expect(await clockNow(sim)).toBe(iso(target));
  });

  it('keeps simulated time across a restart', async () => {
    const dir = await tempDir();
    const first = await startSimulator({ dir, demo: false });
    await advance(first, { seconds: 1234 });
    await first.close();
    const second = await start({ dir });
    expect(await second.json({ url: '/sim/clock' }).then((r) => r.body)).toEqual({ now: iso(EPOCH_MS + 1_234_000), mode: 'frozen' });
  });
});

describe('realtime clock', () => {
  it('reads one instant through a synchronous run of code (the wall clock moving meanwhile), the next instant in the next run, and a move at once', async () => {
    const clock = createClock({ mode: 'realtime', valueMs: 0 });
    const first = clock.now();
    const moved = Date.now() + 5;
    while (Date.now() < moved) {
      // the wall clock moves 5 ms while this run goes on
    }
    expect(clock.now()).toBe(first);
    await Promise.resolve();
    const next = clock.now();
    expect(next).toBeGreaterThanOrEqual(first + 5);
    clock.moveTo(next + 60_000);
    expect(clock.now()).toBeGreaterThanOrEqual(next + 60_000);
  });

  it('follows the wall clock plus what advancing adds, and never stands still', async () => {
    const sim = await start({ demo: false, clock: 'realtime' });
    const first = await sim.json({ url: '/sim/clock' });
    expect(first.body.mode).toBe('realtime');
    expect(Math.abs(Date.parse(first.body.now) - Date.now())).toBeLessThan(5_000);
    await waitFor(async () => Date.parse(await clockNow(sim)) > Date.parse(first.body.now), 'realtime clock to move');
    const answer = await advance(sim, { seconds: 3600 });
    expect(Date.parse(answer.now) - Date.now()).toBeGreaterThan(3_595_000);
    expect(Date.parse(answer.now) - Date.now()).toBeLessThan(3_605_000);
  });
});

describe('scheduler', () => {
  /** Keys created in this order with these lifetimes; expiry jobs fall at createdAt + days. */
  async function keysExpiringIn(sim: TestSimulator, days: number[]): Promise<Array<{ id: string; expiresAt: string }>> {
    const account = await createAccount(sim, 'solana');
    const keys = [];
    for (const [i, expiresInDays] of days.entries()) {
      const { key } = await createKey(sim, account, { profile: 'solana_sol', spendLimitAtomic: '1', name: `k${i}`, expiresInDays });
      keys.push({ id: key.id as string, expiresAt: key.expiresAt as string });
    }
    return keys;
  }

  it('runs due key.expire jobs in (time, sequence) order at each key expiresAt', async () => {
    const sim = await start({ demo: false });
    const [k3, k1a, k2, k1b] = await keysExpiringIn(sim, [3, 1, 2, 1]);
    expect(k1a.expiresAt).toBe(iso(EPOCH_MS + DAY_MS));
    expect(k1b.expiresAt).toBe(k1a.expiresAt);

    // Not yet due: nothing runs.
    expect((await advance(sim, { seconds: DAY_S - 1 })).processed).toEqual([]);
    const answer = await advance(sim, { seconds: 2 * DAY_S + 1 });
    expect(answer.now).toBe(iso(EPOCH_MS + 3 * DAY_MS));
    expect(answer.processed).toEqual([
      { kind: 'key.expire', ref: k1a.id, at: k1a.expiresAt },
      { kind: 'key.expire', ref: k1b.id, at: k1b.expiresAt },
      { kind: 'key.expire', ref: k2.id, at: k2.expiresAt },
      { kind: 'key.expire', ref: k3.id, at: k3.expiresAt },
    ]);
    // A job runs once.
    expect((await advance(sim, { seconds: 10 * DAY_S })).processed).toEqual([]);
  });

  it('{ next: true } jumps to the next job; with none left it stays put', async () => {
    const sim = await start({ demo: false });
    const [k7, k5] = await keysExpiringIn(sim, [7, 5]);
    const first = await advance(sim, { next: true });
    expect(first).toEqual({ now: k5.expiresAt, processed: [{ kind: 'key.expire', ref: k5.id, at: k5.expiresAt }] });
    const second = await advance(sim, { next: true });
    expect(second).toEqual({ now: k7.expiresAt, processed: [{ kind: 'key.expire', ref: k7.id, at: k7.expiresAt }] });
    const third = await advance(sim, { next: true });
    expect(third).toEqual({ now: k7.expiresAt, processed: [] });
  });

  it('{ to } runs every job due up to that instant and no later one', async () => {
    const sim = await start({ demo: false });
    const [k2, k4] = await keysExpiringIn(sim, [2, 4]);
    const answer = await advance(sim, { to: iso(EPOCH_MS + 3 * DAY_MS) });
    expect(answer.processed.map((p) => p.ref)).toEqual([k2.id]);
    expect((await advance(sim, { to: k4.expiresAt })).processed.map((p) => p.ref)).toEqual([k4.id]);
  });

  it('keeps scheduled jobs across a restart', async () => {
    const dir = await tempDir();
    const first = await startSimulator({ dir, demo: false });
    const [k] = await keysExpiringIn(first, [2]);
    await first.close();
    const second = await start({ dir });
    expect(await advance(second, { next: true })).toEqual({ now: k.expiresAt, processed: [{ kind: 'key.expire', ref: k.id, at: k.expiresAt }] });
  });

  it('expires a key at expiresAt: status expired and the same 401 as an unknown key', async () => {
    const sim = await start({ demo: false });
    const account = await createAccount(sim, 'evm');
    const { key, secret } = await createKey(sim, account, { profile: 'local_custody', spendLimitAtomic: '1', expiresInDays: 1 });
    expect((await sim.json({ url: '/v1/buyer/key', key: secret })).status).toBe(200);

    const expiresAtMs = Date.parse(key.expiresAt);
    await advance(sim, { to: iso(expiresAtMs - 1000) });
    const justBefore = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(justBefore.status).toBe(200);
    expect(justBefore.body.key.status).toBe('active');

    const answer = await advance(sim, { seconds: 1 });
    expect(answer.processed).toEqual([{ kind: 'key.expire', ref: key.id, at: key.expiresAt }]);
    const refused = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(UNAUTHENTICATED);
    const listed = await sim.json({ url: `/sim/accounts/${account}/keys` });
    expect(listed.body.keys.find((k: { id: string }) => k.id === key.id).status).toBe('expired');
  });
});
