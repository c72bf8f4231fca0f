/** What the keyed-GET measurements read, made over HTTP on a server started by the bench. */
import { expectStatus, request, sleep, type ReadyChild } from './helpers.ts';
import { INPUT, LISTING_ID } from './populate.ts';

/** The demo ETH key (local_custody) from the credentials a server prints after its ready line (`serve`'s format). */
export async function demoKey(server: ReadyChild): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const match = /local_custody\s+account \S+ \(evm\)\s+key (\S+)/.exec(server.stdout());
    if (match) return match[1];
    await sleep(20);
  }
  throw new Error(`the server printed no demo credentials: ${server.stdout()}`);
}

/** One ended run (report, settlement, events) of the key; its id. */
export async function endedRun(url: string, key: string, idempotencyKey: string): Promise<string> {
  const quote = await request(`${url}/v1/custody/quotes`, { method: 'POST', key, body: { listingId: LISTING_ID, input: INPUT } });
  expectStatus(quote, 201, 'quote');
  const accepted = await request(`${url}/v1/custody/quotes/${quote.body.quote.id}/accept`, {
    method: 'POST',
    key,
    body: { acceptedContractHash: quote.body.quote.contractHash, idempotencyKey },
  });
  expectStatus(accepted, 202, 'accept');
  expectStatus(await request(`${url}/sim/clock/advance`, { method: 'POST', body: { seconds: 900 } }), 200, 'advance');
  const run = await request(`${url}/v1/runs/${accepted.body.run.id}`, { key });
  expectStatus(run, 200, 'GET run');
  if (!['succeeded', 'partial', 'failed'].includes(run.body.run.status)) throw new Error(`the read run did not end: ${run.body.run.status}`);
  return accepted.body.run.id;
}
