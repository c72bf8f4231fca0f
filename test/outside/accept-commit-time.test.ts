import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';
import { provision, quoteOk, type Buyer } from '../quotes/support.ts';

/**
 * Spec 4.5 (3): the quote must not have expired when the acceptance commits.
 * The accept's headers arrive while the quote is valid; the frozen clock then
 * passes the 240 s lifetime (through the control API, on another connection);
 * only then does the body arrive.
 */

let s: TestSimulator;
let base: string;
let buyer: Buyer;

beforeAll(async () => {
  s = await startSimulator();
  base = await listen(s.app);
  buyer = await provision(s, 'local_custody');
});
afterAll(async () => s?.destroy());

/** Sends a request's head over a raw socket once the server has taken it in; the body goes later. */
async function sendHead(path: string, headers: Record<string, string | number>): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { port } = new URL(base);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const answer = new Promise<string>((resolve, reject) => {
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
  });
  // The server emits 'request' once the head is parsed and its onRequest hooks (authentication) have run.
  const taken = new Promise<void>((resolve) => {
    const onRequest = (request: { url?: string }) => {
      if (request.url !== path) return;
      s.app.server.off('request', onRequest);
      resolve();
    };
    s.app.server.on('request', onRequest);
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const head = [`POST ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  await taken;
  return { socket, answer };
}

const statusAndBody = (raw: string) => ({ status: Number(raw.split(' ')[1]), body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) });

describe('accepting a quote: expiry is checked when the acceptance commits (spec 4.5)', () => {
  it('an accept whose body arrives after the quote expired is refused with 409 quote_expired, and nothing is reserved', async () => {
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const body = JSON.stringify({ acceptedContractHash: quote.contractHash, idempotencyKey: 'late-body-0001' });
    const path = `/v1/custody/quotes/${quote.id}/accept`;
    const { socket, answer } = await sendHead(path, { authorization: `Bearer ${buyer.secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });

    const advanced = await fetch(`${base}/sim/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 241 }) });
    expect(advanced.status).toBe(200);
    // Written, not ended: the server answers `connection: close` by closing.
    socket.write(body);

    const refused = statusAndBody(await answer);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe('quote_expired');
    const runs = await s.json({ url: `/sim/runs?accountId=${buyer.accountId}` });
    expect(runs.body.runs).toEqual([]);
  });

  it('the same late body before the expiry is accepted (the raw-socket path itself works)', async () => {
    const quote = await quoteOk(s, buyer, TOKEN_RESEARCH_LISTING_ID);
    const body = JSON.stringify({ acceptedContractHash: quote.contractHash, idempotencyKey: 'late-body-0002' });
    const path = `/v1/custody/quotes/${quote.id}/accept`;
    const { socket, answer } = await sendHead(path, { authorization: `Bearer ${buyer.secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    expect((await fetch(`${base}/sim/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 239 }) })).status).toBe(200);
    // Written, not ended: the server answers `connection: close` by closing.
    socket.write(body);
    const accepted = statusAndBody(await answer);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.run.status).toBe('queued');
  });
});
