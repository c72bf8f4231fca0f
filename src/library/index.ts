/**
 * `import { startUnderstudy } from 'understudy'`: the simulator inside a test
 * suite (docs/testing.md). The typed client is 'understudy/client', the
 * webhook verifier 'understudy/webhook'.
 */
export { startUnderstudy, type Understudy, type UnderstudyClock } from './start.ts';
export type { UnderstudyOptions } from './options.ts';
export type { DemoAccount, DemoAccounts, DemoKeys } from './demo.ts';
export { createClient, ApiError, NetworkError, type Client, type ClientOptions, type SimApi, type V1Api } from '../client/index.ts';
