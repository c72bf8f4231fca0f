import { describe, expect, it } from 'vitest';
import { warmNextTick } from '../../sim/runtime/tick-warmup.ts';

describe('the nextTick warm-up', () => {
  it('runs once per process, and every caller waits for that one run', async () => {
    const first = warmNextTick();
    expect(warmNextTick()).toBe(first);
    await expect(first).resolves.toBeUndefined();
    expect(warmNextTick()).toBe(first);
  });
});
