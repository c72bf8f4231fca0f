import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Hang guards only, long enough for a machine under heavy load (npm run test:loaded): no
    // test's outcome depends on how fast it ran; each awaits its events (ready line, exit, answer).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
