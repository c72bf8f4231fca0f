import { defineConfig } from 'vitest/config';

/** 100 isolated tests in four files on two workers: one simulator per file, reset before each test. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
