import { createHttp } from './http.ts';
import { waitForRun, type PollOptions } from './poll.ts';
import { DEFAULT_RETRY, type Sleep } from './retry.ts';
import { createSim, type SimApi } from './sim.ts';
import { createV1, type V1Api } from './v1.ts';
import type { RunRead } from './types.ts';

/**
 * A typed client of the Buyer Service Interface (`v1`) and of the
 * simulator's control API (`sim`). Depends on fetch only, so scripts can
 * point it at the simulator or at the real service.
 *
 *   const client = createClient({ baseUrl: 'http://127.0.0.1:4010', key });
 *   const page = await client.v1.listAgents({ chain: 'solana', sort: 'name' });
 */
export interface ClientOptions {
  baseUrl: string;
  key?: string;
  controlToken?: string;
  fetch?: typeof fetch;
  /** Waits between retries and polls; tests pass a recorder. */
  sleep?: Sleep;
  /** Retries of a retryable call after its first attempt (spec 7: 2 by default). */
  retries?: number;
  /** How long each attempt may wait for its answer, in ms (30 s by default); then it fails with a RequestTimeoutError. */
  timeoutMs?: number;
}

export interface Client {
  v1: V1Api;
  sim: SimApi;
  /** Polls GET /v1/runs/{id} until the run is terminal (spec 4.6). */
  waitForRun(runId: string, options?: PollOptions): Promise<RunRead>;
}

export function createClient(options: ClientOptions): Client {
  const sleep = options.sleep ?? DEFAULT_RETRY.sleep;
  const http = createHttp({
    baseUrl: options.baseUrl,
    key: options.key,
    controlToken: options.controlToken,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    retry: { ...DEFAULT_RETRY, retries: options.retries ?? DEFAULT_RETRY.retries, sleep },
  });
  const v1 = createV1(http);
  return {
    v1,
    sim: createSim(http),
    waitForRun: (runId, pollOptions = {}) => waitForRun(v1.getRun, runId, { sleep, ...pollOptions }),
  };
}

export { ApiError, NetworkError, PollTimeoutError, isClientError, type ClientError } from './errors.ts';
export { RequestTimeoutError, DEFAULT_TIMEOUT_MS } from './http.ts';
export { isRetryable, retryDelayMs, DEFAULT_RETRY, type Sleep, type RetryPolicy, type RetryWait, type RetryObserver } from './retry.ts';
export { pollDelayMs, isTerminal, TERMINAL_RUN_STATUSES, type PollOptions } from './poll.ts';
export { railOf, ARTIFACT_ID_HEADER, type V1Api } from './v1.ts';
export type { SimApi } from './sim.ts';
export * from './agent-query.ts';
export type * from './types.ts';
