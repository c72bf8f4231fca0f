import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startUnderstudy, type Understudy, type UnderstudyOptions } from 'understudy';

/**
 * One simulator per test file (so per worker at any moment), back to its
 * starting state before every test. Call at the top of a test file; the
 * answer is read inside tests, once beforeAll has run.
 */
export function useUnderstudy(options: UnderstudyOptions = {}): () => Understudy {
  let understudy: Understudy | undefined;
  beforeAll(async () => {
    understudy = await startUnderstudy(options);
  });
  beforeEach(() => understudy!.reset());
  afterAll(() => understudy?.stop());
  return () => understudy!;
}
