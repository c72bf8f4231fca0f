import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, pollDelayMs, PollTimeoutError } from '../../src/client/index.ts';
import { recordingSleep, startFaultServer, type FaultServer } from './fault-server.ts';

/** Spec 4.6: poll from about one second, backing off to about ten, until terminal. */

const RUN_ID = '77777777-7777-4777-8777-777777777777';
const read = (status: string) => ({ status: 200, body: { run: { id: RUN_ID, status }, events: [] } });

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

describe('waitForRun', () => {
  it('backs off 1, 2, 4, 8 then 10 seconds and returns the terminal read', async () => {
    server.script(`/v1/runs/${RUN_ID}`, [read('queued'), read('running'), read('running'), read('running'), read('running'), read('running'), read('succeeded')]);
    const { sleep, waits } = recordingSleep();
    const seen: string[] = [];
    const result = await createClient({ baseUrl: server.url, sleep }).waitForRun(RUN_ID, { onPoll: (r) => seen.push(r.run.status) });
    expect(result.run.status).toBe('succeeded');
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(seen).toEqual(['queued', 'running', 'running', 'running', 'running', 'running', 'succeeded']);
  });

  it('returns at once when the run is already terminal (partial counts)', async () => {
    server.script(`/v1/runs/${RUN_ID}`, [read('partial')]);
    const { sleep, waits } = recordingSleep();
    await expect(createClient({ baseUrl: server.url, sleep }).waitForRun(RUN_ID)).resolves.toMatchObject({ run: { status: 'partial' } });
    expect(waits).toEqual([]);
  });

  it('gives up after maxPolls with a typed error', async () => {
    server.script(`/v1/runs/${RUN_ID}`, [read('running')]);
    const { sleep, waits } = recordingSleep();
    const error = await createClient({ baseUrl: server.url, sleep }).waitForRun(RUN_ID, { maxPolls: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ code: 'poll_timeout', runId: RUN_ID, polls: 3 });
    expect(waits).toEqual([1000, 2000]);
  });

  it('lets the caller shape the backoff', () => {
    expect([0, 1, 2, 3].map((i) => pollDelayMs(i, { initialDelayMs: 500, factor: 3, maxDelayMs: 5000 }))).toEqual([500, 1500, 4500, 5000]);
  });
});
