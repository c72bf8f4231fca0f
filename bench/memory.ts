/**
 * Peak memory: `understudy serve` (the built CLI, as `npm run serve` starts it)
 * opens a populated store, this process sends it a few requests over HTTP (key,
 * run and catalog reads, one quote and its acceptance), and the server's peak
 * resident set (Linux's VmHWM of its process) is read; measured with 20,000
 * runs, and with 100 runs as the baseline. Then the server is stopped with
 * SIGTERM and its peak is followed until it exits (the shutdown checkpoint), for
 * information.
 */
import { readFile } from 'node:fs/promises';
import { expectStatus, log, request, row, serveSimulator, sleep, type Row } from './helpers.ts';
import { INPUT, LISTING_ID, RAIL_PATH, type PopulatedStore } from './populate.ts';

const GROUP = 'memory';
const MB = 1024 * 1024;
export const MEMORY_LIMIT_MB = 200;

export interface MemoryUse {
  runs: number;
  storeBytes: number;
  loadMs: number;
  servingPeakBytes: number;
  closePeakBytes: number;
}

/** VmHWM of a live process (its peak resident set), or null once it has exited. */
async function peakResidentBytes(pid: number): Promise<number | null> {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

export async function measureMemory(store: PopulatedStore): Promise<MemoryUse> {
  const buyer = store.buyers[store.buyers.length - 1];
  const server = await serveSimulator(store.storePath);
  const pid = server.child.pid!;
  try {
    for (let i = 0; i < 5; i += 1) {
      expectStatus(await request(`${server.url}/v1/buyer/key`, { key: store.reader.secret }), 200, 'GET /v1/buyer/key');
      expectStatus(await request(`${server.url}/v1/runs/${store.reader.runId}`, { key: store.reader.secret }), 200, 'GET /v1/runs/{id}');
      expectStatus(await request(`${server.url}/v1/public/agents`, { key: store.reader.secret }), 200, 'GET /v1/public/agents');
    }
    const quote = await request(`${server.url}${RAIL_PATH}/quotes`, { method: 'POST', key: buyer.secret, body: { listingId: LISTING_ID, input: INPUT } });
    expectStatus(quote, 201, 'POST quotes');
    const accepted = await request(`${server.url}${RAIL_PATH}/quotes/${quote.body.quote.id}/accept`, {
      method: 'POST',
      key: buyer.secret,
      body: { acceptedContractHash: quote.body.quote.contractHash, idempotencyKey: `bench-memory-${pid}` },
    });
    expectStatus(accepted, 202, 'POST accept');
    const servingPeakBytes = (await peakResidentBytes(pid)) ?? Number.NaN;
    // The peak only grows; the last reading before the process is gone is its peak through shutdown.
    let closePeakBytes = servingPeakBytes;
    const stopped = server.stop('SIGTERM');
    let running = true;
    void stopped.then(() => {
      running = false;
    });
    while (running) {
      closePeakBytes = (await peakResidentBytes(pid)) ?? closePeakBytes;
      await sleep(5);
    }
    await stopped;
    log(`memory with ${store.runs} runs: peak ${(servingPeakBytes / MB).toFixed(0)} MB serving, ${(closePeakBytes / MB).toFixed(0)} MB through shutdown; ready in ${Math.round(server.readyMs)} ms`);
    return { runs: store.runs, storeBytes: store.storeBytes, loadMs: server.readyMs, servingPeakBytes, closePeakBytes };
  } finally {
    await server.stop('SIGKILL');
  }
}

export function memoryRows(small: MemoryUse, large: MemoryUse): Row[] {
  const mb = (bytes: number) => bytes / MB;
  return [
    row({ group: GROUP, name: `peak RSS of serve, ${small.runs} runs`, value: mb(small.servingPeakBytes), unit: 'MB', note: `store ${mb(small.storeBytes).toFixed(1)} MB on disk; ready in ${Math.round(small.loadMs)} ms` }),
    row({
      group: GROUP,
      name: `peak RSS of serve, ${large.runs} runs`,
      value: mb(large.servingPeakBytes),
      unit: 'MB',
      baseline: { name: `${small.runs} runs`, value: mb(small.servingPeakBytes) },
      target: { text: `≤ ${MEMORY_LIMIT_MB} MB`, pass: mb(large.servingPeakBytes) <= MEMORY_LIMIT_MB },
      note: `store ${mb(large.storeBytes).toFixed(0)} MB on disk; ready in ${Math.round(large.loadMs)} ms`,
    }),
    row({
      group: GROUP,
      name: `peak RSS of serve through its shutdown checkpoint, ${large.runs} runs`,
      value: mb(large.closePeakBytes),
      unit: 'MB',
      baseline: { name: `${small.runs} runs`, value: mb(small.closePeakBytes) },
      note: 'for information',
    }),
  ];
}
