/**
 * Durable accept latency over HTTP: `understudy serve` on a populated store;
 * each of ACCEPTS iterations creates a quote (not timed) and accepts it (timed,
 * from sending the request to the whole 202 answer, which leaves only once the
 * acceptance is on disk). One request at a time, on a kept-alive connection.
 * Buyers rotate so the run limits (3 active per account) are never reached.
 */
import { percentile, request, expectStatus, log, serveSimulator, row, type ReadyChild, type Row } from './helpers.ts';
import { INPUT, LISTING_ID, RAIL_PATH, type PopulatedStore } from './populate.ts';

export const ACCEPTS = 200;
/** Buyers each populated store needs (the last one is memory.ts's). */
export const BUYERS = Math.ceil(ACCEPTS / 3) + 1;

const GROUP = 'durable accept';

export interface AcceptLatency {
  runs: number;
  p50: number;
  p99: number;
  /** Wall time from spawn to the ready line (the store's load included). */
  readyMs: number;
}

/**
 * Both stores are served at once and the accepts alternate between them
 * (small, large, small, …), so both see the same disk and the same load from
 * elsewhere on the machine.
 */
export async function measureAccept(stores: PopulatedStore[]): Promise<AcceptLatency[]> {
  const servers: ReadyChild[] = [];
  try {
    // Started one after the other, so each ready time is the store's own load.
    for (const store of stores) servers.push(await serveSimulator(store.storePath));
    const times: number[][] = stores.map(() => []);
    for (let i = 0; i < ACCEPTS; i += 1) {
      for (const [k, store] of stores.entries()) {
        const url = servers[k].url;
        const buyer = store.buyers[Math.floor(i / 3)];
        const quote = await request(`${url}${RAIL_PATH}/quotes`, { method: 'POST', key: buyer.secret, body: { listingId: LISTING_ID, input: INPUT } });
        expectStatus(quote, 201, 'quote');
        const body = { acceptedContractHash: quote.body.quote.contractHash, idempotencyKey: `bench-accept-${i}` };
        const started = performance.now();
        const accepted = await request(`${url}${RAIL_PATH}/quotes/${quote.body.quote.id}/accept`, { method: 'POST', key: buyer.secret, body });
        times[k].push(performance.now() - started);
        expectStatus(accepted, 202, 'accept');
      }
    }
    return stores.map((store, k) => {
      const result = { runs: store.runs, p50: percentile(times[k], 50), p99: percentile(times[k], 99), readyMs: servers[k].readyMs };
      log(`accept with ${store.runs} runs: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (ready after ${Math.round(result.readyMs)} ms)`);
      return result;
    });
  } finally {
    // The stores are thrown away: no need to wait for the shutdown checkpoint.
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  }
}

export function acceptRows(small: AcceptLatency, large: AcceptLatency): Row[] {
  return [
    row({ group: GROUP, name: `accept p50, ${small.runs} runs in store`, value: small.p50, unit: 'ms', note: `p99 ${small.p99.toFixed(2)} ms over ${ACCEPTS}` }),
    row({
      group: GROUP,
      name: `accept p50, ${large.runs} runs in store`,
      value: large.p50,
      unit: 'ms',
      baseline: { name: `${small.runs} runs`, value: small.p50 },
      target: { text: `≤ 2× at ${small.runs} runs`, pass: large.p50 <= 2 * small.p50 },
      note: `p99 ${large.p99.toFixed(2)} ms over ${ACCEPTS}`,
    }),
    row({
      group: GROUP,
      name: `serve start to ready, ${large.runs} runs in store`,
      value: large.readyMs,
      unit: 'ms',
      baseline: { name: `${small.runs} runs`, value: small.readyMs },
      note: 'for information: the store load',
    }),
  ];
}
