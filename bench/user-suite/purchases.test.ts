/**
 * A user's test suite, as docs/testing.md shows one: one simulator for the file
 * (startUnderstudy), reset() before each test; each test quotes, accepts, advances
 * the clock until the run has ended and settled, and reads its billing and receipt.
 * bench/user-suite.ts copies it into the project where the packed tarball is
 * installed and runs it with vitest there, against understudy and against a
 * stateless stub (bench/replay-app.ts: bare Fastify answering the same routes with
 * bodies heard from understudy). The file is the same for both; only its target differs.
 *   SUITE_TARGET  understudy | stub
 *   SUITE_TESTS   how many tests; SUITE_LISTING_ID the listing bought
 *   SUITE_ANSWERS the stub's bodies (JSON), SUITE_REPLAY_APP bench/replay-app.ts
 *   SUITE_RESULT  where the file writes its timing: from the first test's reset to the last test's end
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startUnderstudy } from 'understudy';

interface Target {
  url: string;
  key: string;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const TESTS = Number(env('SUITE_TESTS'));
const LISTING_ID = env('SUITE_LISTING_ID');
const INPUT = { chain: 'ethereum', address: `0x${'ab'.repeat(20)}` };
const ENDED = ['succeeded', 'partial', 'failed', 'cancelled', 'expired'];

async function understudy(): Promise<Target> {
  const u = await startUnderstudy();
  return { url: u.url, key: u.keys.local_custody, reset: () => u.reset(), stop: () => u.stop() };
}

async function stub(): Promise<Target> {
  const { replayApp } = await import(env('SUITE_REPLAY_APP'));
  const app = replayApp(JSON.parse(readFileSync(env('SUITE_ANSWERS'), 'utf8')));
  const address: string = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    key: 'stub',
    reset: async () => {},
    stop: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

let target: Target;
let first = Number.NaN;

async function call(path: string, status: number, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${target.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${target.key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(status);
  return body;
}

beforeAll(async () => {
  target = env('SUITE_TARGET') === 'stub' ? await stub() : await understudy();
});

beforeEach(async () => {
  if (Number.isNaN(first)) first = performance.now();
  await target.reset();
});

afterAll(async () => {
  const testsMs = performance.now() - first;
  await target.stop();
  writeFileSync(env('SUITE_RESULT'), JSON.stringify({ tests: TESTS, testsMs, perTestMs: testsMs / TESTS }));
});

for (let i = 1; i <= TESTS; i += 1) {
  test(`purchase ${i}: quote, accept, the run ends and settles, billing and receipt`, async () => {
    const { quote } = await call('/v1/custody/quotes', 201, { method: 'POST', body: { listingId: LISTING_ID, input: INPUT } });
    const accepted = await call(`/v1/custody/quotes/${quote.id}/accept`, 202, {
      method: 'POST',
      body: { acceptedContractHash: quote.contractHash, idempotencyKey: `user-suite-purchase-${i}` },
    });
    let run = accepted.run;
    let billing = null;
    while (!ENDED.includes(run.status) || billing?.status !== 'settled') {
      await call('/sim/clock/advance', 200, { method: 'POST', body: { seconds: 60 } });
      run = (await call(`/v1/runs/${run.id}`, 200)).run;
      if (ENDED.includes(run.status)) billing = await call(`/v1/custody/runs/${run.id}/billing`, 200);
    }
    expect(billing.settlement.outcome).toBe(run.status);
    const receipt = await call(`/v1/runs/${run.id}/receipt`, 200);
    expect(receipt).toBeTruthy();
  });
}
