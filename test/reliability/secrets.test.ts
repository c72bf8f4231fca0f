import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLANA_INSPECTION_LISTING_ID, TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { call, demoSecrets, findSecrets, INSPECTION_INPUT, isErrorBody, killChildren, removeTempDirs, SECRET_PATTERN, serve, stop, tempDir, TOKEN_INPUT, waitFor, type Answer, type Served } from './support.ts';

/**
 * Issue 9 point 5: a secret is shown once. After a full flow on `serve
 * --record` (demo keys, extra keys, a destination's signing secret, monitors'
 * webhook secrets, quotes, acceptances, runs, deliveries, reads and refusals),
 * no key secret or signing secret appears in the store file or journal,
 * GET /sim/requests, GET /sim/snapshot, the recorded scenario, the child's
 * output after its credential block, any webhook sent, or any answer other than
 * the one creation answer that showed it (there exactly once); no error
 * message ever holds one, not even one the client put in a path, query or body.
 */

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

const receivers: Server[] = [];

/** A loopback webhook receiver that echoes verification challenges and accepts every delivery. */
async function startReceiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ url: req.url ?? '', headers: req.headers, raw });
      let challenge: unknown;
      try {
        challenge = (JSON.parse(raw) as { challenge?: unknown }).challenge;
      } catch {
        challenge = undefined;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(challenge ? { challenge } : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receivers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

afterAll(async () => {
  await killChildren();
  for (const server of receivers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await removeTempDirs();
});

/** Every answer of a session, and the secrets its creation answers showed. */
class Session {
  readonly answers: Array<{ what: string; answer: Answer; shows: string | null }> = [];
  readonly secrets = new Map<string, string>();
  constructor(readonly served: Served) {}

  async call(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}, expected?: number): Promise<Answer> {
    const answer = await call(this.served.base, method, path, options);
    const what = `${method} ${path} → ${answer.status}`;
    if (expected !== undefined) expect(answer.status, `${what} ${answer.text.slice(0, 400)}`).toBe(expected);
    // A creation answer shows its one new secret.
    const shown = [answer.body?.secret, answer.body?.signingSecret, answer.body?.webhookSecret].filter((v): v is string => typeof v === 'string');
    expect(shown.length, what).toBeLessThanOrEqual(1);
    for (const secret of shown) this.secrets.set(secret, what);
    this.answers.push({ what, answer, shows: shown[0] ?? null });
    return answer;
  }
}

describe('secrets are shown once', () => {
  it('a full recorded flow leaves no secret in the store, journal, request log, snapshot, recording, output, webhooks or any other answer', async () => {
    const dir = await tempDir('secrets');
    const store = join(dir, 's.json');
    const recording = join(dir, 'rec.json');
    const receiver = await startReceiver();
    const served = await serve(['--port', '0', '--clock', 'frozen', '--limits', 'off', '--store', store, '--record', recording]);
    const s = new Session(served);
    const demo = demoSecrets(served);
    expect(demo.map((d) => d.profile)).toEqual(['solana_sol', 'solana_usdc', 'local_custody', 'sim']);
    for (const d of demo) s.secrets.set(d.secret, 'the demo credential block');
    const evm = demo.find((d) => d.profile === 'local_custody')!.accountId;
    const solana = demo.find((d) => d.profile === 'solana_sol')!.accountId;
    const demoEth = demo.find((d) => d.profile === 'local_custody')!.secret;

    // Keys made through the control API; one revoked.
    const ethScopes = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read', 'monitors:read', 'monitors:write'];
    const k1 = (await s.call('POST', `/sim/accounts/${evm}/keys`, { body: { profile: 'local_custody', spendLimitAtomic: '100000000000000000000', scopes: ethScopes, name: 'extra eth' } }, 201)).body;
    const k2 = (await s.call('POST', `/sim/accounts/${evm}/keys`, { body: { profile: 'sim', spendLimitAtomic: '100000000000', name: 'extra sim' } }, 201)).body;
    const k3 = (await s.call('POST', `/sim/accounts/${solana}/keys`, { body: { profile: 'solana_usdc', spendLimitAtomic: '100000000', name: 'extra usdc' } }, 201)).body;
    const k4 = (await s.call('POST', `/sim/accounts/${evm}/keys`, { body: { profile: 'local_custody', spendLimitAtomic: '1', name: 'to revoke' } }, 201)).body;
    await s.call('POST', `/sim/keys/${k4.key.id}/revoke`, {}, 200);
    for (const k of [k1, k2, k3, k4]) expect(k.secret).toMatch(/^svc_test_[A-Za-z0-9_-]{43}$/);

    // A verified destination (signing secret), monitors with a webhook (webhook secrets), a subscription.
    const destination = (await s.call('POST', `/sim/accounts/${evm}/destinations`, { body: { url: receiver.url } }, 201)).body;
    expect(destination.signingSecret).toEqual(expect.any(String));
    expect((await s.call('POST', `/sim/destinations/${destination.destination.id}/verify`, {}, 200)).body.destination.state).toBe('verified');
    const monitorBody = {
      name: 'secret flow',
      chain: 'base',
      rules: [{ id: 'transfers', type: 'erc20-transfer', token: `0x${'a1'.repeat(20)}` }],
      durationSeconds: 3600,
      tickBudget: 1000,
      rpcBudget: 10_000,
      idempotencyKey: 'secret-flow-monitor',
      windowBlocks: 1,
      webhookUrl: receiver.url,
    };
    const monitor = (await s.call('POST', '/v1/monitors', { key: k1.secret, body: monitorBody }, 201)).body;
    expect(monitor.webhookSecret).toEqual(expect.any(String));
    const replayed = (await s.call('POST', '/v1/monitors', { key: k1.secret, body: monitorBody }, 200)).body;
    expect(replayed.webhookSecret).toBeNull();
    const owned = (await s.call('POST', `/sim/accounts/${evm}/monitors`, { body: { ...monitorBody, name: 'owner flow', idempotencyKey: 'secret-flow-owner' } }, 201)).body;
    expect(owned.webhookSecret).toEqual(expect.any(String));
    await s.call('POST', `/sim/monitors/${monitor.monitor.id}/subscriptions`, { body: { destinationId: destination.destination.id } }, 201);
    await s.call('POST', '/sim/chains/base/blocks', { body: { logs: [{ address: `0x${'a1'.repeat(20)}`, event: 'Transfer', args: { from: `0x${'c3'.repeat(20)}`, to: `0x${'d4'.repeat(20)}`, value: '42' } }] } }, 201);
    await s.call('POST', '/sim/chains/base/blocks', { body: { count: 2 } }, 201);
    // Deliveries: the destination's and both monitors' own webhooks.
    await waitFor(() => receiver.received.filter((r) => !r.raw.includes('service.destination.verification')).length >= 3, 'three webhook deliveries');

    // Quotes, acceptances and runs on three rails.
    const quoteAndAccept = async (prefix: string, key: string, body: Record<string, unknown>, idempotencyKey: string) => {
      const quote = (await s.call('POST', `${prefix}/quotes`, { key, body }, 201)).body.quote;
      const accepted = (await s.call('POST', `${prefix}/quotes/${quote.id}/accept`, { key, body: { acceptedContractHash: quote.contractHash, idempotencyKey } }, 202)).body;
      // Replays and refusals of the same quote.
      await s.call('POST', `${prefix}/quotes/${quote.id}/accept`, { key, body: { acceptedContractHash: quote.contractHash, idempotencyKey } }, 202);
      await s.call('POST', `${prefix}/quotes/${quote.id}/accept`, { key, body: { acceptedContractHash: quote.contractHash, idempotencyKey: `${idempotencyKey}-other` } }, 409);
      await s.call('POST', `${prefix}/quotes/${quote.id}/accept`, { key, body: { acceptedContractHash: 'f'.repeat(64), idempotencyKey } }, 409);
      return { quote, run: accepted.run };
    };
    const eth = await quoteAndAccept('/v1/custody', k1.secret, { listingId: TOKEN_RESEARCH_LISTING_ID, input: TOKEN_INPUT }, 'secret-flow-eth');
    const sim = await quoteAndAccept('/v1/rehearsal', k2.secret, { listingId: TOKEN_RESEARCH_LISTING_ID, input: TOKEN_INPUT }, 'secret-flow-sim');
    const usdc = await quoteAndAccept('/v1/solana-custody', k3.secret, { listingId: SOLANA_INSPECTION_LISTING_ID, assetId: 'solana:mainnet-beta/spl:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', input: INSPECTION_INPUT }, 'secret-flow-usdc');
    await s.call('POST', `/sim/runs/${eth.run.id}/script`, { body: { outcome: 'succeeded', durationSeconds: 5 } }, 200);
    await s.call('POST', `/sim/runs/${sim.run.id}/script`, { body: { outcome: 'partial', unconfirmedRpcCalls: 1, durationSeconds: 5 } }, 200);
    await s.call('POST', '/sim/clock/advance', { body: { seconds: 600 } }, 200);
    await s.call('POST', `/v1/runs/${usdc.run.id}/cancel`, { key: k3.secret }, 403);
    await s.call('POST', `/v1/runs/${usdc.run.id}/cancel`, { key: demo.find((d) => d.profile === 'solana_usdc')!.secret }, 200);

    // Reads.
    for (const key of [k1.secret, k2.secret, k3.secret, ...demo.map((d) => d.secret)]) await s.call('GET', '/v1/buyer/key', { key }, 200);
    await s.call('GET', `/v1/runs/${eth.run.id}`, { key: k1.secret }, 200);
    await s.call('GET', `/v1/runs/${eth.run.id}/export`, { key: k1.secret }, 200);
    await s.call('GET', `/v1/runs/${eth.run.id}/receipt`, { key: k1.secret }, 200);
    await s.call('GET', `/v1/custody/runs/${eth.run.id}/billing`, { key: k1.secret }, 200);
    await s.call('GET', `/v1/rehearsal/runs/${sim.run.id}/billing`, { key: k2.secret }, 200);
    await s.call('GET', '/v1/monitors', { key: k1.secret }, 200);
    await s.call('GET', `/v1/monitors/${monitor.monitor.id}`, { key: k1.secret }, 200);
    const notes = (await s.call('GET', '/v1/notifications', { key: k1.secret }, 200)).body.notifications as Array<{ id: string }>;
    if (notes.length > 0) await s.call('POST', `/v1/notifications/${notes[0].id}/ack`, { key: k1.secret }, 200);
    await s.call('GET', '/v1/capabilities', { key: k1.secret }, 200);
    await s.call('GET', '/v1/public/agents', {}, 200);
    for (const account of [evm, solana]) {
      await s.call('GET', `/sim/accounts/${account}`, {}, 200);
      await s.call('GET', `/sim/accounts/${account}/keys`, {}, 200);
      await s.call('GET', `/sim/accounts/${account}/ledger`, {}, 200);
    }
    await s.call('GET', `/sim/destinations/${destination.destination.id}`, {}, 200);
    await s.call('GET', `/sim/monitors/${monitor.monitor.id}`, {}, 200);
    await s.call('GET', '/sim/deliveries?limit=1000', {}, 200);
    await s.call('GET', '/sim/runs', {}, 200);

    // Refusals carrying credentials in the Authorization header (where they belong).
    await s.call('GET', '/v1/buyer/key', { key: k4.secret }, 401);
    await s.call('GET', '/v1/monitors', { key: k2.secret }, 403);
    await s.call('GET', '/v1/solana-custody/catalog', { key: k1.secret }, 403);
    await s.call('GET', '/v1/runs/00000000-0000-4000-8000-000000000000', { key: k1.secret }, 404);
    await s.call('GET', '/v1/buyer/key', { key: k1.secret, headers: { cookie: 'svc_session=abc' } }, 400);
    await s.call('GET', '/v1/keys', { key: k1.secret }, 401);
    await s.call('GET', '/v1/buyer/key?verbose=1', { key: k1.secret }, 400);
    await s.call('GET', '/v1/buyer/key', { headers: { authorization: `Bearer ${k1.secret}x` } }, 401);
    await s.call('GET', '/v1/buyer/key', { headers: { authorization: k1.secret } }, 401);
    await s.call('POST', `/v1/custody/quotes/${eth.quote.id}/accept`, { key: k1.secret, body: { acceptedContractHash: eth.quote.contractHash, idempotencyKey: 'short' } }, 400);
    await s.call('POST', '/sim/accounts/00000000-0000-4000-8000-000000000000/keys', { body: { profile: 'local_custody', spendLimitAtomic: '1' } }, 404);

    // The request log and the snapshot, as any client sees them.
    const requestLog = await s.call('GET', '/sim/requests?limit=10000', {}, 200);
    expect(requestLog.body.requests.length).toBeGreaterThan(20);
    const snapshot = await s.call('GET', '/sim/snapshot', {}, 200);
    const liveJournal = await readFile(`${store}.journal`, 'utf8');
    expect(liveJournal.length).toBeGreaterThan(0);

    const all = [...s.secrets.keys()];
    expect(all.length).toBe(4 + 4 + 1 + 2);
    const leaks: string[] = [];
    // Each creation answer shows its own secret exactly once and no other; every other answer shows none.
    for (const { what, answer, shows } of s.answers) {
      for (const secret of all) {
        const count = answer.text.split(secret).length - 1;
        if (secret === shows ? count !== 1 : count !== 0) leaks.push(`${secret.slice(0, 13)}… ${count}× in ${what}`);
      }
      if (answer.status >= 300) {
        expect(isErrorBody(answer.body), `${what} ${answer.text}`).toBe(true);
        expect(answer.body.error.message, what).not.toMatch(SECRET_PATTERN);
      }
    }
    leaks.push(...findSecrets(requestLog.text, all, 'GET /sim/requests'));
    leaks.push(...findSecrets(snapshot.text, all, 'GET /sim/snapshot'));
    leaks.push(...findSecrets(liveJournal, all, 'the journal while serving'));
    for (const r of receiver.received) leaks.push(...findSecrets(`${r.url} ${JSON.stringify(r.headers)} ${r.raw}`, all, 'a webhook sent'));
    expect(receiver.received.length).toBeGreaterThanOrEqual(4);

    // A clean stop; then every file the session left, and the child's output.
    expect(await stop(served, 'SIGTERM')).toEqual({ code: 0, signal: null });
    const files = await readdir(dir);
    expect(files).toEqual(expect.arrayContaining(['s.json', 's.json.journal', 's.json.rows.1', 'rec.json']));
    for (const file of files) leaks.push(...findSecrets(await readFile(join(dir, file), 'utf8'), all, file));
    const recorded = JSON.parse(await readFile(recording, 'utf8')) as { steps: unknown[] };
    expect(recorded.steps.length).toBeGreaterThan(50);
    const stdout = served.stdout();
    leaks.push(...findSecrets(stdout.slice(served.readyOffset), all, 'stdout after the credential block'));
    leaks.push(...findSecrets(served.stderr(), all, 'stderr'));
    // The credential block shows each demo secret once, and only the demo secrets.
    for (const d of demo) expect(stdout.split(d.secret).length - 1).toBe(1);
    expect(stdout.slice(0, served.readyOffset).match(new RegExp(SECRET_PATTERN.source, 'g'))).toHaveLength(4);
    expect(leaks).toEqual([]);
  });

  it('never echoes a credential the client put in a path, query string, body or cookie, and keeps it out of the log, store and output', async () => {
    const dir = await tempDir('misplaced');
    const store = join(dir, 's.json');
    const served = await serve(['--port', '0', '--clock', 'frozen', '--limits', 'off', '--store', store]);
    const s = new Session(served);
    const demo = demoSecrets(served);
    const evm = demo.find((d) => d.profile === 'local_custody')!.accountId;
    const created = (await s.call('POST', `/sim/accounts/${evm}/keys`, { body: { profile: 'local_custody', spendLimitAtomic: '1' } }, 201)).body.secret as string;
    const destination = (await s.call('POST', `/sim/accounts/${evm}/destinations`, { body: { url: 'https://hooks.example.test/x' } }, 201)).body.signingSecret as string;
    const key = demo.find((d) => d.profile === 'local_custody')!.secret;
    const all = [...demo.map((d) => d.secret), created, destination];

    const misplaced: Array<[string, string, { key?: string; body?: unknown; headers?: Record<string, string> }]> = [];
    for (const secret of all) {
      misplaced.push(
        ['GET', `/v1/runs/${secret}`, { key }],
        ['GET', `/v1/buyer/key?${secret}=1`, { key }],
        ['GET', `/v1/buyer/key?api_key=${secret}`, { key }],
        ['GET', `/v1/public/agents?cursor=${secret}`, {}],
        ['GET', `/v1/public/agents?q=${secret}&limit=${secret}`, {}],
        ['POST', '/v1/custody/quotes', { key, body: { [secret]: 1, listingId: TOKEN_RESEARCH_LISTING_ID, input: TOKEN_INPUT } }],
        ['POST', '/v1/custody/quotes', { key, body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: { ...TOKEN_INPUT, [secret]: secret } } }],
        ['POST', '/v1/custody/quotes', { key, body: { listingId: secret, input: TOKEN_INPUT } }],
        ['POST', '/v1/monitors', { key, body: { name: 'x', chain: secret, rules: [], idempotencyKey: secret } }],
        ['GET', `/sim/chains/${secret}`, {}],
        ['POST', '/sim/accounts', { body: { type: secret } }],
        ['POST', `/sim/accounts/${evm}/keys`, { body: { profile: 'local_custody', spendLimitAtomic: secret, [`x${secret}`]: true } }],
        ['POST', `/sim/accounts/${evm}/destinations`, { body: { url: `https://user:${secret}@hooks.example.test/` } }],
        ['GET', `/v1/zz-unknown/${secret}`, { key }],
        ['GET', '/v1/buyer/key', { headers: { authorization: `Bearer ${secret}`, cookie: `svc_session=${secret}` } }],
        ['GET', '/v1/buyer/key', { headers: { authorization: `Basic ${secret}` } }],
      );
    }
    for (const [method, path, options] of misplaced) {
      const answer = await s.call(method, path, options);
      const what = `${method} ${path} → ${answer.status} ${answer.text.slice(0, 300)}`;
      expect(answer.status, what).toBeGreaterThanOrEqual(400);
      expect(answer.status, what).toBeLessThan(500);
      expect(isErrorBody(answer.body), what).toBe(true);
      expect(answer.body.error.message, what).not.toMatch(SECRET_PATTERN);
      expect(findSecrets(answer.text, all, what)).toEqual([]);
    }

    const leaks: string[] = [];
    leaks.push(...findSecrets((await s.call('GET', '/sim/requests?limit=10000', {}, 200)).text, all, 'GET /sim/requests'));
    leaks.push(...findSecrets((await s.call('GET', '/sim/snapshot', {}, 200)).text, all, 'GET /sim/snapshot'));
    leaks.push(...findSecrets(await readFile(`${store}.journal`, 'utf8'), all, 'the journal while serving'));
    expect(await stop(served, 'SIGTERM')).toEqual({ code: 0, signal: null });
    for (const file of await readdir(dir)) leaks.push(...findSecrets(await readFile(join(dir, file), 'utf8'), all, file));
    leaks.push(...findSecrets(served.stdout().slice(served.readyOffset), all, 'stdout after the credential block'));
    leaks.push(...findSecrets(served.stderr(), all, 'stderr'));
    expect(leaks).toEqual([]);
  });
});

describe('the recording and a credential the client misplaced', () => {
  let recorded = '';
  let secret = '';
  beforeAll(async () => {
    const dir = await tempDir('recorded-misplaced');
    const recording = join(dir, 'rec.json');
    const served = await serve(['--port', '0', '--clock', 'frozen', '--limits', 'off', '--store', join(dir, 's.json'), '--record', recording]);
    secret = demoSecrets(served).find((d) => d.profile === 'local_custody')!.secret;
    for (const [path, body] of [[`/v1/runs/${secret}`, undefined], [`/v1/buyer/key?api_key=${secret}`, undefined], ['/v1/custody/quotes', { [secret]: 1 }]] as const) {
      const answer = await call(served.base, body ? 'POST' : 'GET', path, { key: secret, body });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain(secret);
    }
    expect(await stop(served, 'SIGTERM')).toEqual({ code: 0, signal: null });
    recorded = await readFile(recording, 'utf8');
    expect(JSON.parse(recorded).steps).toHaveLength(3);
  });

  // The recorder redacts credentials a client put in a path, query string or body.
  it('keeps it out of the recorded scenario', () => {
    expect(recorded).not.toContain(secret);
  });
});
