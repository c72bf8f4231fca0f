import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
