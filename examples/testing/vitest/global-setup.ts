import type { TestProject } from 'vitest/node';
import { startUnderstudy } from 'understudy';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A simulator shared by the whole run, for code under test that is configured once with a URL. */
    sharedUnderstudyUrl: string;
    sharedUnderstudyKey: string;
  }
}

/**
 * Runs once per `vitest run`, in the main process: one simulator for what
 * must be set up before any worker starts (a dev server's SERVICE_URL, say).
 * Tests that change state use their own (./understudy.ts) instead.
 */
export default async function setup(project: TestProject) {
  const shared = await startUnderstudy({ seed: 42 });
  project.provide('sharedUnderstudyUrl', shared.url);
  project.provide('sharedUnderstudyKey', shared.keys.local_custody);
  return () => shared.stop();
}
