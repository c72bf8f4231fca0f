import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type Client } from '../../src/client/index.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** The client against a real embedded simulator on a loopback port. */

let sim: TestSimulator;
let client: Client;
let baseUrl: string;
beforeAll(async () => {
  sim = await startSimulator();
  baseUrl = await listen(sim.app);
  client = createClient({ baseUrl, key: sim.secret('local_custody') });
});
afterAll(() => sim.destroy());

describe('client against the simulator', () => {
  it('reads its own key', async () => {
    const key = await client.v1.getKey();
    expect(key).toMatchObject({ profile: 'local_custody', status: 'active', spendUsedAtomic: '0' });
    expect(key.scopes).toContain('monitors:read');
  });

  it('pages through the whole catalog with cursors', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let total = -1;
    let pages = 0;
    do {
      const page = await client.v1.listAgents({ sort: 'name', limit: 25, cursor });
      total = page.total;
      ids.push(...page.agents.map((a) => a.listingId));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(ids.length).toBe(total);
    expect(new Set(ids).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 25));
  });

  it('filters and opens an agent detail', async () => {
    const page = await client.v1.listAgents({ chain: 'solana', limit: 5 });
    expect(page.agents.length).toBeGreaterThan(0);
    expect(page.agents.every((a) => a.chains?.includes('solana'))).toBe(true);
    const agent = await client.v1.getAgent(page.agents[0].listingId);
    expect(agent.listingId).toBe(page.agents[0].listingId);
    expect(agent.limits.maximumRpcCalls).toBeGreaterThan(0);
    expect(Array.isArray(agent.inputFields)).toBe(true);
    expect(Array.isArray(agent.refundPolicy)).toBe(true);
  });

  it('turns refusals into typed errors', async () => {
    const invalid = await client.v1.listAgents({ limit: 51 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_input' });
    await expect(client.v1.getAgent('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ status: 404, message: 'This agent listing was not found.' });
    await expect(client.v1.catalog('solana-custody')).rejects.toMatchObject({ status: 403, message: 'This API key is restricted to a different payment environment.' });
  });

  it('drives the control API', async () => {
    await expect(client.sim.clock()).resolves.toMatchObject({ mode: 'frozen' });
    const accounts = await client.sim.accounts();
    const evm = accounts.find((a) => a.type === 'evm')!;
    const view = await client.sim.account(evm.id);
    expect(view.balances.map((b) => b.profile)).toContain('local_custody');
    const { key, secret } = await client.sim.createKey(evm.id, { profile: 'local_custody', spendLimitAtomic: '5', name: 'client test' });
    const other = createClient({ baseUrl, key: secret });
    await expect(other.v1.getKey()).resolves.toMatchObject({ id: key.id, name: 'client test' });
    await client.sim.revokeKey(key.id);
    await expect(other.v1.getKey()).rejects.toMatchObject({ status: 401, message: 'A valid, active API key is required.' });
  });
});

