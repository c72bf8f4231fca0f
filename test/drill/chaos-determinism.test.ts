import { describe, expect, it } from 'vitest';
import { startLive } from './support.ts';

/** Issue 17: "Same seed, same requests → same faults." */

const MIXED = {
  name: 'mixed',
  retryAfterSeconds: [1, 3],
  slowBodyMs: 20,
  groups: { read: { 'rate-limited': 0.15, unavailable: 0.1, 'internal-error': 0.15, reset: 0.1, 'lost-after-commit': 0.1, 'slow-body': 0.1, latency: { probability: 0.3, minMs: 1, maxMs: 5 } } },
};
const PATHS = ['/v1/buyer/key', '/v1/public/agents?limit=2', '/v1/custody/catalog', '/v1/monitors', '/v1/notifications'];

/** 40 reads in a fixed order; what chaos did to each. */
async function faultsOf(seed: string | number): Promise<string[]> {
  const live = await startLive();
  try {
    await live.setChaos(MIXED, seed);
    for (let i = 0; i < 40; i += 1) await live.call('GET', PATHS[i % PATHS.length]);
    return (await live.lines()).map((l: any) => `${l.route} ${l.status} ${l.chaos.join('+')} ${l.retryAfterSeconds ?? ''}`);
  } finally {
    await live.sim.destroy();
  }
}

describe('seeded chaos', () => {
  it('the same seed and the same requests give the same faults; another seed gives others', async () => {
    const first = await faultsOf(7);
    const again = await faultsOf(7);
    const other = await faultsOf(8);
    expect(first).toHaveLength(40);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // The profile is mixed enough that several kinds occur in 40 requests.
    expect(new Set(first.map((f) => f.split(' ')[2]).filter(Boolean)).size).toBeGreaterThan(3);
  });

  it('chaos draws never shift the ids the simulator hands out', async () => {
    const idsOf = async (profile: unknown) => {
      const live = await startLive();
      try {
        if (profile) await live.setChaos(profile, 3);
        const account = await live.call('POST', '/sim/accounts', { type: 'evm' });
        for (let i = 0; i < 10; i += 1) await live.call('GET', '/v1/buyer/key');
        const second = await live.call('POST', '/sim/accounts', { type: 'evm' });
        return [account, second].map((a) => (a === 'lost' ? a : a.body.account.id));
      } finally {
        await live.sim.destroy();
      }
    };
    expect(await idsOf(MIXED)).toEqual(await idsOf(null));
  });
});
