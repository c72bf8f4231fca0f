import { describe, expect, it } from 'vitest';
import { startSimulator } from '../helpers/simulator.ts';
import { advance, createAccount, createKey, EPOCH_MS, tempDir, UNAUTHENTICATED, UUID, simulatorsPerTest } from './support.ts';

const start = simulatorsPerTest();

const BALANCE_FIELDS = ['profile', 'assetId', 'depositedAtomic', 'availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic'];

describe('POST /sim/reset', () => {
  it('empties the store (accounts and keys gone, clock back at the epoch) and keeps the listings', async () => {
    const sim = await start();
    const demoAccount = sim.demo[0].accountId;
    const secret = sim.secret('solana_sol');
    const listings = sim.sim.deps.store.all('listings').map((l) => l.id).sort();
    expect(listings.length).toBeGreaterThan(0);
    await advance(sim, { seconds: 5000 });
    await sim.json({ method: 'PUT', url: '/sim/faults', body: { researchProviderUnavailable: true } });

    const reset = await sim.json({ method: 'POST', url: '/sim/reset', body: {} });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ok: true });
    expect((await sim.json({ url: '/sim/requests' })).body.requests).toEqual([]);

    expect((await sim.json({ url: `/sim/accounts/${demoAccount}` })).status).toBe(404);
    expect((await sim.json({ url: '/sim/accounts' })).body.accounts).toEqual([]);
    const refused = await sim.json({ url: '/v1/buyer/key', key: secret });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(UNAUTHENTICATED);
    expect(sim.sim.deps.store.count('keys')).toBe(0);
    expect(sim.sim.deps.store.count('jobs')).toBe(0);
    expect(sim.sim.deps.store.all('listings').map((l) => l.id).sort()).toEqual(listings);
    expect((await sim.json({ url: '/v1/public/agents' })).status).toBe(200);
    expect((await sim.json({ url: '/sim/clock' })).body.now).toBe(new Date(EPOCH_MS).toISOString());
    expect((await sim.json({ url: '/sim/faults' })).body.faults.researchProviderUnavailable).toBe(false);
    // Nothing left to schedule.
    expect((await advance(sim, { next: true })).processed).toEqual([]);
  });

  it('with a seed reproduces a new store of that seed, and survives a restart', async () => {
    const dir = await tempDir();
    const sim = await startSimulator({ dir, seed: 1 });
    expect((await sim.json({ method: 'POST', url: '/sim/reset', body: { seed: 'seven' } })).status).toBe(200);
    const afterReset = await createAccount(sim, 'evm');
    await sim.close();

    const fresh = await start({ seed: 'seven', demo: false });
    expect(await createAccount(fresh, 'evm')).toBe(afterReset);

    const reopened = await start({ dir });
    const accounts = (await reopened.json({ url: '/sim/accounts' })).body.accounts;
    expect(accounts.map((a: { id: string }) => a.id)).toEqual([afterReset]);
  });

  it('without a body keeps the current seed', async () => {
    const sim = await start({ seed: 5, demo: false });
    const first = await createAccount(sim, 'solana');
    // A reset with no body at all (contract: the body is { seed? }).
    const reset = await sim.json({ method: 'POST', url: '/sim/reset' });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await createAccount(sim, 'solana')).toBe(first);
    expect((await sim.json({ method: 'POST', url: '/sim/reset', body: {} })).status).toBe(200);
    expect(await createAccount(sim, 'solana')).toBe(first);
    // A body that is there must still be valid.
    expect((await sim.json({ method: 'POST', url: '/sim/reset', body: { seed: 5, other: 1 } })).status).toBe(400);
    expect((await sim.json({ method: 'POST', url: '/sim/reset', body: [] })).status).toBe(400);
  });
});

describe('accounts and deposits', () => {
  it('creates accounts and shows them with their balances', async () => {
    const sim = await start({ demo: false });
    const created = await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'solana', label: 'Alice' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ account: { id: expect.stringMatching(UUID), type: 'solana', label: 'Alice' } });
    const id = created.body.account.id;

    const empty = await sim.json({ url: `/sim/accounts/${id}` });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ account: { id, type: 'solana', label: 'Alice' }, balances: [] });

    const usdc = await sim.json({ method: 'POST', url: `/sim/accounts/${id}/deposits`, body: { profile: 'solana_usdc', amountAtomic: '2500000' } });
    expect(usdc.status).toBe(201);
    expect(Object.keys(usdc.body.balance).sort()).toEqual([...BALANCE_FIELDS].sort());
    expect(usdc.body.balance).toMatchObject({ profile: 'solana_usdc', depositedAtomic: '2500000', availableAtomic: '2500000', reservedAtomic: '0', pendingAtomic: '0', chargedAtomic: '0' });
    // Amounts beyond 2^53 stay exact.
    await sim.json({ method: 'POST', url: `/sim/accounts/${id}/deposits`, body: { profile: 'solana_sol', amountAtomic: '9007199254740993' } });
    const again = await sim.json({ method: 'POST', url: `/sim/accounts/${id}/deposits`, body: { profile: 'solana_sol', amountAtomic: '9007199254740993' } });
    expect(again.body.balance.depositedAtomic).toBe('18014398509481986');
    expect(again.body.balance.availableAtomic).toBe('18014398509481986');

    const view = await sim.json({ url: `/sim/accounts/${id}` });
    expect(view.body.balances.map((b: { profile: string }) => b.profile).sort()).toEqual(['solana_sol', 'solana_usdc']);
    for (const balance of view.body.balances) expect(Object.keys(balance).sort()).toEqual([...BALANCE_FIELDS].sort());

    const evm = await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' } });
    expect(evm.body.account).toMatchObject({ type: 'evm', label: null });
    const sim2 = await sim.json({ method: 'POST', url: `/sim/accounts/${evm.body.account.id}/deposits`, body: { profile: 'sim', amountAtomic: '1' } });
    expect(sim2.status).toBe(201);
  });

  it('refuses bad accounts and deposits', async () => {
    const sim = await start({ demo: false });
    for (const body of [{ type: 'bitcoin' }, {}, { type: 'evm', label: 'x'.repeat(101) }]) {
      const response = await sim.json({ method: 'POST', url: '/sim/accounts', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_input');
    }
    const solana = await createAccount(sim, 'solana');
    const evm = await createAccount(sim, 'evm');
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['leading zero', solana, { profile: 'solana_sol', amountAtomic: '01' }, 'amountAtomic'],
      ['number', solana, { profile: 'solana_sol', amountAtomic: 100 }, 'amountAtomic'],
      ['negative', solana, { profile: 'solana_sol', amountAtomic: '-5' }, 'amountAtomic'],
      ['decimal', solana, { profile: 'solana_sol', amountAtomic: '1.5' }, 'amountAtomic'],
      ['zero', solana, { profile: 'solana_sol', amountAtomic: '0' }, 'amountAtomic'],
      ['ETH into a Solana account', solana, { profile: 'local_custody', amountAtomic: '1' }, 'profile'],
      ['SOL into an EVM account', evm, { profile: 'solana_sol', amountAtomic: '1' }, 'profile'],
      ['USDC into an EVM account', evm, { profile: 'solana_usdc', amountAtomic: '1' }, 'profile'],
      ['unknown profile', solana, { profile: 'btc', amountAtomic: '1' }, 'profile'],
      ['missing amount', solana, { profile: 'solana_sol' }, 'amountAtomic'],
    ];
    for (const [what, account, body, field] of cases) {
      const response = await sim.json({ method: 'POST', url: `/sim/accounts/${account}/deposits`, body });
      expect(response.status, what).toBe(400);
      expect(response.body.error.code, what).toBe('invalid_input');
      expect(response.body.error.message, what).toContain(field);
    }
    expect((await sim.json({ url: `/sim/accounts/${solana}` })).body.balances).toEqual([]);
    expect((await sim.json({ url: `/sim/accounts/${evm}` })).body.balances).toEqual([]);
    const missing = await sim.json({ url: '/sim/accounts/00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await sim.json({ url: '/sim/accounts/not-a-uuid' })).status).toBe(400);
  });

  it('creates keys through the account and returns the secret only there', async () => {
    const sim = await start({ demo: false });
    const account = await createAccount(sim, 'solana');
    const { key, secret } = await createKey(sim, account, { profile: 'solana_usdc', spendLimitAtomic: '10' });
    const listed = await sim.json({ url: `/sim/accounts/${account}/keys` });
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify((await sim.json({ url: '/v1/buyer/key', key: secret })).body)).not.toContain(secret);
  });
});

describe('faults', () => {
  it('PUT merges and GET reads them; they persist across a restart', async () => {
    const dir = await tempDir();
    const sim = await startSimulator({ dir, demo: false });
    const initial = await sim.json({ url: '/sim/faults' });
    expect(initial.body).toEqual({ faults: { paymentsDisabled: [], researchProviderUnavailable: false, exportStorageUnavailable: false } });

    const put = await sim.json({ method: 'PUT', url: '/sim/faults', body: { paymentsDisabled: ['solana_sol', 'solana_sol', 'sim'], researchProviderUnavailable: true } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ faults: { paymentsDisabled: ['solana_sol', 'sim'], researchProviderUnavailable: true, exportStorageUnavailable: false } });
    const merged = await sim.json({ method: 'PUT', url: '/sim/faults', body: { exportStorageUnavailable: true } });
    expect(merged.body.faults).toEqual({ paymentsDisabled: ['solana_sol', 'sim'], researchProviderUnavailable: true, exportStorageUnavailable: true });
    expect((await sim.json({ url: '/sim/faults' })).body).toEqual(merged.body);

    for (const body of [{ paymentsDisabled: ['bitcoin'] }, { researchProviderUnavailable: 'yes' }, { other: true }]) {
      const response = await sim.json({ method: 'PUT', url: '/sim/faults', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    await sim.close();
    const reopened = await start({ dir });
    expect((await reopened.json({ url: '/sim/faults' })).body).toEqual(merged.body);
    const cleared = await reopened.json({ method: 'PUT', url: '/sim/faults', body: { paymentsDisabled: [], researchProviderUnavailable: false, exportStorageUnavailable: false } });
    expect(cleared.body.faults).toEqual(initial.body.faults);
  });
});

describe('control token', () => {
  it('when set, every /sim request needs x-understudy-control-token (401 otherwise); /v1 is unaffected', async () => {
    const sim = await start({ controlToken: 'let-me-in' });
    const header = { 'x-understudy-control-token': 'let-me-in' };
    const calls = [
      { method: 'GET', url: '/sim/clock' },
      { method: 'POST', url: '/sim/accounts', body: { type: 'solana' } },
      { method: 'POST', url: '/sim/clock/advance', body: { seconds: 60 } },
      { method: 'POST', url: '/sim/reset', body: {} },
      { method: 'GET', url: '/sim/requests' },
      { method: 'GET', url: '/sim/no-such-route' },
    ];
    for (const call of calls) {
      const attempts: Array<Record<string, string>> = [{}, { 'x-understudy-control-token': 'wrong' }, { 'x-understudy-control-token': '' }];
      for (const headers of attempts) {
        const response = await sim.json({ ...call, headers });
        expect(response.status, `${call.method} ${call.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(response.body.error.code).toBe('request_rejected');
        expect(response.body.error.message).not.toContain('let-me-in');
      }
    }
    // Nothing happened.
    expect(sim.sim.deps.store.count('accounts')).toBe(2);
    expect((await sim.json({ url: '/sim/clock', headers: header })).body.now).toBe(new Date(EPOCH_MS).toISOString());

    expect((await sim.json({ url: '/sim/clock', headers: header })).status).toBe(200);
    expect((await sim.json({ method: 'POST', url: '/sim/accounts', body: { type: 'evm' }, headers: header })).status).toBe(201);
    expect((await sim.json({ url: '/v1/buyer/key', key: sim.secret('sim') })).status).toBe(200);
    expect((await sim.json({ url: '/v1/capabilities' })).status).toBe(200);
  });

  it('when not set, /sim needs no token', async () => {
    const sim = await start({ demo: false });
    expect((await sim.json({ url: '/sim/clock' })).status).toBe(200);
  });
});
