/**
 * Child process of memory.ts: opens a populated store with buildSimulator
 * (limits off, frozen clock), listens on a free port, serves a few requests
 * over HTTP to itself, then reports its peak resident set size; then closes
 * (the shutdown compaction rewrites the snapshot) and reports the peak again.
 *   node --import tsx bench/memory-child.ts STORE READER_SECRET RUN_ID BUYER_SECRET
 * Prints one JSON line: { loadMs, servingMaxRssBytes, servingHwmBytes, closeMaxRssBytes, heapUsedBytes }.
 */
import { readFile } from 'node:fs/promises';
import { buildSimulator } from '../sim/app.ts';
import { INPUT, LISTING_ID, RAIL_PATH } from './populate.ts';

const [storePath, readerSecret, runId, buyerSecret] = process.argv.slice(2);
const maxRssBytes = () => process.resourceUsage().maxRSS * 1024;
/** Linux's own peak RSS of this process image (VmHWM), a cross-check of maxRSS. */
const hwmBytes = async () => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(await readFile('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;
  } catch {
    return Number.NaN;
  }
};

const started = performance.now();
const built = await buildSimulator({ storePath, clock: 'frozen', limits: false });
const address = await built.app.listen({ host: '127.0.0.1', port: 0 });
const loadMs = performance.now() - started;

async function call(method: string, path: string, secret: string, body?: unknown): Promise<any> {
  const response = await fetch(address + path, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

for (let i = 0; i < 5; i += 1) {
  await call('GET', '/v1/buyer/key', readerSecret);
  await call('GET', `/v1/runs/${runId}`, readerSecret);
  await call('GET', '/v1/public/agents', readerSecret);
}
const { quote } = await call('POST', `${RAIL_PATH}/quotes`, buyerSecret, { listingId: LISTING_ID, input: INPUT });
await call('POST', `${RAIL_PATH}/quotes/${quote.id}/accept`, buyerSecret, { acceptedContractHash: quote.contractHash, idempotencyKey: `bench-memory-${process.pid}` });

const servingMaxRssBytes = maxRssBytes();
const servingHwmBytes = await hwmBytes();
const heapUsedBytes = process.memoryUsage().heapUsed;
await built.close();
process.stdout.write(`${JSON.stringify({ loadMs, servingMaxRssBytes, servingHwmBytes, closeMaxRssBytes: maxRssBytes(), heapUsedBytes })}\n`);
