import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** Spec 5.2 (exactly one credential), 4.1 (strict parameters) and 2.1 (no-store on keyed requests). */

let s: TestSimulator;
let base: string;
let eth: string;

beforeAll(async () => {
  s = await startSimulator();
  base = await listen(s.app);
  eth = s.secret('local_custody');
});
afterAll(async () => s?.destroy());

/** A GET over a raw socket with the headers given as a list, so a name may repeat (Node's client would merge them). */
function rawGet(path: string, rawHeaders: string[]): Promise<{ status: number; body: any; headers: Record<string, string> }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), body: JSON.parse(body), headers });
    });
    const lines = [`GET ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close'];
    for (let i = 0; i < rawHeaders.length; i += 2) lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

describe('two Authorization headers (spec 5.2: exactly one credential)', () => {
  it('are refused with 400 on keyed and public routes, whichever keys they carry', async () => {
    const other = s.secret('solana_sol');
    for (const path of ['/v1/buyer/key', '/v1/public/agents', '/v1/custody/catalog']) {
      for (const [first, second] of [
        [eth, eth],
        [eth, other],
        [eth, 'svc_test_' + 'A'.repeat(43)],
      ]) {
        const answer = await rawGet(path, ['Authorization', `Bearer ${first}`, 'authorization', `Bearer ${second}`]);
        expect(answer.status, path).toBe(400);
        expect(answer.body.error.code).toBe('request_rejected');
        expect(answer.body.error.message).toMatch(/exactly one credential/);
        expect(answer.headers['cache-control']).toBe('no-store');
      }
      // One header is fine (the same request otherwise).
      expect((await rawGet(path, ['Authorization', `Bearer ${eth}`])).status, path).toBe(200);
    }
  });

  it('a refused double is not counted as the key being used', async () => {
    const before = (await s.json({ url: '/v1/buyer/key', key: eth })).body.key.requestsLast24h;
    await rawGet('/v1/buyer/key', ['Authorization', `Bearer ${eth}`, 'Authorization', `Bearer ${eth}`]);
    const after = (await s.json({ url: '/v1/buyer/key', key: eth })).body.key.requestsLast24h;
    expect(after).toBe(before + 1);
  });
});

describe('integer query parameters are plain decimal integers (spec 4.1: strict parameters)', () => {
  it('limit=1e1, 0x10, 010, +5, 1.0, " 10" are refused naming the parameter; 10 is taken', async () => {
    for (const written of ['1e1', '0x10', '010', '%2B5', '1.0', '%2010', '10%20', '']) {
      const refused = await s.json({ url: `/v1/public/agents?limit=${written}` });
      expect(refused.status, written).toBe(400);
      expect(refused.body.error).toEqual({ code: 'invalid_input', message: "query: 'limit' must be an integer written in plain decimal digits." });
    }
    const ten = await s.json({ url: '/v1/public/agents?limit=10' });
    expect(ten.status).toBe(200);
    expect(ten.body.agents).toHaveLength(10);
    expect((await s.json({ url: '/v1/public/agents?limit=0' })).status).toBe(400);
  });

  it('the same rule holds for the integer parameters of /sim', async () => {
    for (const url of ['/sim/requests?limit=1e1', '/sim/deliveries?limit=0x10']) {
      const refused = await s.json({ url });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.message).toBe("query: 'limit' must be an integer written in plain decimal digits.");
    }
    expect((await s.json({ url: '/sim/requests?limit=5' })).status).toBe(200);
  });
});

describe('Cache-Control: no-store on every answer of a route that takes a key (spec 2.1)', () => {
  it('the missing-key 401, a validation 400 and a 404 of a keyed route carry it, as its 200 does', async () => {
    const answers = [
      await s.request({ url: '/v1/buyer/key' }),
      await s.request({ url: '/v1/runs/00000000-0000-4000-8000-000000000000' }),
      await s.request({ url: '/v1/runs/not-a-uuid', key: eth }),
      await s.request({ url: '/v1/runs/00000000-0000-4000-8000-000000000000', key: eth }),
      await s.request({ url: '/v1/buyer/key', key: eth }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 400, 404, 200]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('the public catalog carries it with or without a key; the machine description does not need it', async () => {
    expect((await s.request({ url: '/v1/public/agents' })).headers['cache-control']).toBe('no-store');
    expect((await s.request({ url: '/v1/public/agents?limit=x' })).headers['cache-control']).toBe('no-store');
    expect((await s.request({ url: '/v1/public/agents', key: eth })).headers['cache-control']).toBe('no-store');
    expect((await s.request({ url: '/v1/openapi.json' })).headers['cache-control']).toBeUndefined();
  });
});
