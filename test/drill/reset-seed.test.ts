import { describe, expect, it } from 'vitest';
import { startSimulator } from '../helpers/simulator.ts';

/** POST /sim/reset {seed} gives what a new simulator of that seed has: its fault stream too. */
describe('a reset to another seed', () => {
  it('seeds the fault stream with the new seed, as a new simulator of that seed; a profile set with its own seed keeps it', async () => {
    const viewOf = async (s: Awaited<ReturnType<typeof startSimulator>>) => (await s.json({ url: '/sim/chaos' })).body;
    const fresh = await startSimulator({ seed: '9' });
    const reset = await startSimulator({ seed: '1' });
    try {
      await fresh.json({ method: 'PUT', url: '/sim/chaos', body: { profile: 'storm' } });
      await reset.json({ method: 'PUT', url: '/sim/chaos', body: { profile: 'storm' } });
      expect((await viewOf(reset)).seed).toBe('1');
      expect((await reset.json({ method: 'POST', url: '/sim/reset', body: { seed: '9' } })).status).toBe(200);
      expect(await viewOf(reset)).toEqual(await viewOf(fresh));
      expect((await viewOf(reset)).seed).toBe('9');
      // A reset without a seed keeps the seed in service.
      await reset.json({ method: 'POST', url: '/sim/reset' });
      expect((await viewOf(reset)).seed).toBe('9');
      // A seed given with the profile is the profile's own, and a reset keeps it.
      await reset.json({ method: 'PUT', url: '/sim/chaos', body: { profile: 'storm', seed: 'own' } });
      await reset.json({ method: 'POST', url: '/sim/reset', body: { seed: '3' } });
      expect((await viewOf(reset)).seed).toBe('own');
    } finally {
      await fresh.destroy();
      await reset.destroy();
    }
  });
});
