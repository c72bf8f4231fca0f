import { request as httpRequest } from 'node:http';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TOKEN_RESEARCH_LISTING_ID } from '../../fixtures/listings/index.ts';
import { call, killChildren, ok, removeTempDirs, serve, stop, tempDir, TOKEN_INPUT } from './support.ts';

/**
 * Issue 9 point 4: crash safety of `serve` under SIGKILL. 200 acceptances are
 * sent at once over HTTP to a child process, which is killed once about half
 * the answers have arrived; after a restart on the same store every
 * acceptance answered 202 is there, no refused one was applied, and every
 * balance keeps deposited = available + reserved + pending + charged with
 * reserved equal to the accepted quotes' maximums. Answers that never arrived
 * may or may not have been applied. A torn journal tail is cut off on restart.
 */

afterEach(killChildren);
afterAll(removeTempDirs);

const SCOPES = ['catalog:read', 'quotes:write', 'runs:read', 'runs:cancel', 'billing:read'];
const ARGS = (store: string) => ['--port', '0', '--clock', 'frozen', '--limits', 'off', '--store', store];

/** A: every acceptance fits. B: four quotes, so the run limit (3 queued or running) refuses one. C: funds for one of two. */
type Group = 'A' | 'B' | 'C';
const PLAN: Array<{ group: Group; accounts: number; quotes: number }> = [
  { group: 'A', accounts: 52, quotes: 3 },
  { group: 'B', accounts: 6, quotes: 4 },
  { group: 'C', accounts: 10, quotes: 2 },
];

interface Buyer {
  group: Group;
  accountId: string;
  secret: string;
  quotes: Array<{ id: string; contractHash: string; max: bigint }>;
  depositAtomic: bigint;
}

interface Accept {
  buyer: Buyer;
  quote: Buyer['quotes'][number];
  idempotencyKey: string;
}

type Outcome = { answered: true; status: number; body: any } | { answered: false; error: string };

async function provision(base: string, group: Group, quoteCount: number): Promise<Buyer> {
  const accountId = (await ok(base, 'POST', '/sim/accounts', 201, { body: { type: 'evm', label: `crash ${group}` } })).account.id as string;
  const { secret } = await ok(base, 'POST', `/sim/accounts/${accountId}/keys`, 201, { body: { profile: 'local_custody', spendLimitAtomic: (10n ** 30n).toString(), scopes: SCOPES, expiresInDays: 90 } });
  const quotes: Buyer['quotes'] = [];
  for (let i = 0; i < quoteCount; i += 1) {
    const { quote } = await ok(base, 'POST', '/v1/custody/quotes', 201, { key: secret, body: { listingId: TOKEN_RESEARCH_LISTING_ID, input: TOKEN_INPUT } });
    quotes.push({ id: quote.id, contractHash: quote.contractHash, max: BigInt(quote.maximumBuyerDebitAtomic) });
  }
  const maxima = quotes.map((q) => q.max);
  const sum = maxima.reduce((a, b) => a + b, 0n);
  // C: enough for either quote alone, not for both.
  const depositAtomic = group === 'C' ? maxima.reduce((a, b) => (a > b ? a : b)) + maxima.reduce((a, b) => (a < b ? a : b)) - 1n : sum;
  await ok(base, 'POST', `/sim/accounts/${accountId}/deposits`, 201, { body: { profile: 'local_custody', amountAtomic: depositAtomic.toString() } });
  return { group, accountId, secret, quotes, depositAtomic };
}

/**
 * One acceptance on its own connection. Its headers go out at once; the body
 * waits for release(), so the burst can be fed while the server is killed.
 * Resolves with the answer, or with the error of a connection the kill cut.
 */
function openAccept(base: string, a: Accept, onAnswer: () => void): { release: () => void; outcome: Promise<Outcome> } {
  const payload = JSON.stringify({ acceptedContractHash: a.quote.contractHash, idempotencyKey: a.idempotencyKey });
  const req = httpRequest(`${base}/v1/custody/quotes/${a.quote.id}/accept`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${a.buyer.secret}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
  });
  const outcome = new Promise<Outcome>((resolve) => {
    let settled = false;
    const finish = (result: Outcome) => {
      if (settled) return;
      settled = true;
      if (result.answered) onAnswer();
      resolve(result);
    };
    req.on('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => {
        try {
          finish({ answered: true, status: res.statusCode!, body: JSON.parse(data) });
        } catch (error) {
          finish({ answered: false, error: `incomplete answer: ${(error as Error).message}` });
        }
      });
      res.on('error', (error) => finish({ answered: false, error: error.message }));
      res.on('aborted', () => finish({ answered: false, error: 'aborted' }));
    });
    req.on('error', (error) => finish({ answered: false, error: error.message }));
  });
  req.flushHeaders();
  return { release: () => req.end(payload), outcome };
}

/** A fixed shuffle (the same every run), so one account's acceptances are spread through the burst. */
function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  let x = 0x9e3779b9;
  for (let i = out.length - 1; i > 0; i -= 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const balanceOf = async (base: string, accountId: string) => {
  const view = await ok(base, 'GET', `/sim/accounts/${accountId}`, 200);
  const balances = view.balances as Array<Record<string, string>>;
  expect(balances.map((b) => b.profile)).toEqual(['local_custody']);
  return balances[0];
};

function expectInvariant(b: Record<string, string>, where: string): void {
  for (const field of ['depositedAtomic', 'availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic']) expect(b[field], `${where} ${field}`).toMatch(/^(0|[1-9][0-9]*)$/);
  expect(BigInt(b.availableAtomic) + BigInt(b.reservedAtomic) + BigInt(b.pendingAtomic) + BigInt(b.chargedAtomic), `${where}: ${JSON.stringify(b)}`).toBe(BigInt(b.depositedAtomic));
}

/**
 * The burst, the kill and every check after the restart. `checkpoints`: store
 * checkpoints (POST /sim/store/checkpoint: archive, snapshot, journal
 * rotation) run back to back throughout the burst, so the kill can land in one.
 */
async function crashDuringBurst(options: { checkpoints: boolean }): Promise<void> {
    const dir = await tempDir('crash');
    const store = join(dir, 's.json');
    const first = await serve(ARGS(store));

    // Provisioning: 68 accounts, each with its own key, quotes and deposit (ten at a time).
    const jobs = PLAN.flatMap(({ group, accounts, quotes }) => Array.from({ length: accounts }, () => ({ group, quotes })));
    const buyers: Buyer[] = [];
    for (let i = 0; i < jobs.length; i += 10) buyers.push(...(await Promise.all(jobs.slice(i, i + 10).map((j) => provision(first.base, j.group, j.quotes)))));
    expect(buyers.length).toBeGreaterThanOrEqual(67);
    const accepts = shuffle(buyers.flatMap((buyer) => buyer.quotes.map((quote, i) => ({ buyer, quote, idempotencyKey: `crash-${buyer.accountId.slice(0, 8)}-${i}` }))));
    expect(accepts.length).toBe(200);

    // The burst: 200 connections open at once (headers sent, each authenticated by the server). Their bodies
    // go out as a sliding window of 60 in flight: one more with each answer. The server is SIGKILLed as
    // soon as half of the answers have arrived, with 60 acceptances received, committing or answering.
    const WINDOW = 60;
    let answered = 0;
    let released = 0;
    let inFlightAtKill = -1;
    let checkpointUnderWay = false;
    let killedInCheckpoint = false;
    let answeredAtKill = 0;
    let checkpointsDone = 0;
    const opened: Array<ReturnType<typeof openAccept>> = [];
    const releaseNext = () => {
      if (inFlightAtKill < 0 && released < opened.length) opened[released++].release();
    };
    for (const a of accepts) {
      opened.push(
        openAccept(first.base, a, () => {
          answered += 1;
          // With checkpoints: at the first answer past half while one is under way (or, failing that, 40 answers later).
          const now = !options.checkpoints || checkpointUnderWay || answered >= accepts.length / 2 + 40;
          if (answered >= accepts.length / 2 && inFlightAtKill < 0 && now) {
            inFlightAtKill = released - answered;
            answeredAtKill = answered;
            killedInCheckpoint = checkpointUnderWay;
            first.child.kill('SIGKILL');
          }
          releaseNext();
        }),
      );
    }
    // One checkpoint completes before the bodies go out, so the variant never passes without any; more run during the burst.
    if (options.checkpoints) expect((await call(first.base, 'POST', '/sim/store/checkpoint')).status).toBe(200);
    for (let i = 0; i < WINDOW; i += 1) releaseNext();
    const checkpointing = (async () => {
      // Until the kill refuses the connection.
      while (options.checkpoints && inFlightAtKill < 0) {
        checkpointUnderWay = true;
        const answer = await call(first.base, 'POST', '/sim/store/checkpoint').catch(() => null);
        checkpointUnderWay = false;
        if (answer?.status !== 200) break;
        checkpointsDone += 1;
      }
    })();
    const outcomes = await Promise.all(opened.map((o) => o.outcome));
    await checkpointing;
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(inFlightAtKill).toBe(WINDOW - 1);

    const results = accepts.map((a, i) => ({ ...a, outcome: outcomes[i] }));
    const accepted = results.filter((r) => r.outcome.answered && r.outcome.status === 202);
    const refused = results.filter((r) => r.outcome.answered && r.outcome.status !== 202);
    const unanswered = results.filter((r) => !r.outcome.answered);
    const appliedUnanswered = async () => {
      let n = 0;
      for (const r of unanswered) if ((await call(base, 'GET', `/sim/runs?accountId=${r.buyer.accountId}`)).body.runs.some((run: { quoteId: string }) => run.quoteId === r.quote.id)) n += 1;
      return n;
    };
    expect(accepted.length + refused.length).toBeGreaterThanOrEqual(accepts.length / 2);
    // Refusals are the planned ones only: the run limit in group B, the balance in group C.
    for (const r of refused) {
      const body = (r.outcome as { body: any }).body;
      if (r.buyer.group === 'B') expect([r.outcome, body.error.code]).toEqual([expect.objectContaining({ status: 429 }), 'request_rejected']);
      else if (r.buyer.group === 'C') expect([r.outcome, body.error.code]).toEqual([expect.objectContaining({ status: 409 }), 'insufficient_available_credit']);
      else expect.fail(`group A acceptance refused: ${JSON.stringify(body)}`);
    }

    // Restart on the same store.
    const second = await serve(ARGS(store));
    expect(second.readyLines[1]).toMatch(/^Existing store/);
    const base = second.base;
    console.info(`crash${options.checkpoints ? ` (${checkpointsDone} checkpoints during the burst; killed ${killedInCheckpoint ? 'while one was under way' : 'between them'})` : ''}: ${accepted.length} answered 202, ${refused.length} refused, ${unanswered.length} unanswered of which ${await appliedUnanswered()} were applied (killed after ${answeredAtKill} answers with ${inFlightAtKill} bodies sent and unanswered)`);

    // Every acceptance answered 202 is there: its run reads back, and the replay returns the same run.
    for (const r of accepted) {
      const body = (r.outcome as { body: any }).body;
      const run = await ok(base, 'GET', `/v1/runs/${body.run.id}`, 200, { key: r.buyer.secret });
      expect(run.run.quoteId).toBe(r.quote.id);
      const replay = await ok(base, 'POST', `/v1/custody/quotes/${r.quote.id}/accept`, 202, { key: r.buyer.secret, body: { acceptedContractHash: r.quote.contractHash, idempotencyKey: r.idempotencyKey } });
      expect(replay.run.id).toBe(body.run.id);
      expect(replay.reservation).toEqual(body.reservation);
    }

    // Per account: the runs on record are exactly some of this account's quotes, including every 202 and no refusal;
    // the ledger invariant holds and reserved equals the sum of the accepted quotes' maximums.
    for (const buyer of buyers) {
      const { runs } = await ok(base, 'GET', `/sim/runs?accountId=${buyer.accountId}`, 200);
      const runQuoteIds = (runs as Array<{ quoteId: string; status: string }>).map((r) => r.quoteId);
      expect(new Set(runQuoteIds).size, `one run per quote for ${buyer.accountId}`).toBe(runQuoteIds.length);
      const own = new Map(buyer.quotes.map((q) => [q.id, q]));
      for (const id of runQuoteIds) expect(own.has(id), `run for a quote of another account: ${id}`).toBe(true);
      for (const r of accepted.filter((x) => x.buyer === buyer)) expect(runQuoteIds).toContain(r.quote.id);
      for (const r of refused.filter((x) => x.buyer === buyer)) expect(runQuoteIds).not.toContain(r.quote.id);
      for (const run of runs as Array<{ status: string }>) expect(run.status).toBe('queued');
      if (buyer.group === 'B') expect(runQuoteIds.length).toBeLessThanOrEqual(3);
      if (buyer.group === 'C') expect(runQuoteIds.length).toBeLessThanOrEqual(1);

      const balance = await balanceOf(base, buyer.accountId);
      expectInvariant(balance, buyer.accountId);
      expect(BigInt(balance.depositedAtomic)).toBe(buyer.depositAtomic);
      expect(BigInt(balance.reservedAtomic)).toBe(runQuoteIds.reduce((sum, id) => sum + own.get(id)!.max, 0n));
      expect([balance.pendingAtomic, balance.chargedAtomic]).toEqual(['0', '0']);
    }

    // Nothing refused was applied: each refused quote is still acceptable (with a new idempotency key) once
    // its reason is gone: a run cancelled for the run limit, a deposit for the balance.
    for (const r of refused) {
      const buyer = r.buyer;
      if (buyer.group === 'B') {
        const { runs } = await ok(base, 'GET', `/sim/runs?accountId=${buyer.accountId}`, 200);
        const active = (runs as Array<{ id: string; status: string }>).filter((run) => run.status === 'queued');
        if (active.length >= 3) await ok(base, 'POST', `/v1/runs/${active[0].id}/cancel`, 200, { key: buyer.secret });
      } else {
        await ok(base, 'POST', `/sim/accounts/${buyer.accountId}/deposits`, 201, { body: { profile: 'local_custody', amountAtomic: r.quote.max.toString() } });
      }
      const again = await call(base, 'POST', `/v1/custody/quotes/${r.quote.id}/accept`, { key: buyer.secret, body: { acceptedContractHash: r.quote.contractHash, idempotencyKey: `${r.idempotencyKey}-again` } });
      expect(again.status, again.text).toBe(202);
      expect(again.body.run.quoteId).toBe(r.quote.id);
      expectInvariant(await balanceOf(base, buyer.accountId), `${buyer.accountId} after re-accepting`);
    }

    expect(await stop(second, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(second.stderr()).toBe('');
}

describe('crash safety of serve', () => {
  it('keeps every acceptance answered 202 and applies no refused one when SIGKILLed during 200 concurrent accepts', async () => {
    await crashDuringBurst({ checkpoints: false });
  });

  it('the same with store checkpoints running back to back through the burst (the kill can land in one)', async () => {
    await crashDuringBurst({ checkpoints: true });
  });

  it('cuts a torn journal tail off on restart and keeps every committed change', async () => {
    const dir = await tempDir('torn');
    const store = join(dir, 's.json');
    const journal = `${store}.journal`;
    const first = await serve(ARGS(store));
    const accountId = (await ok(first.base, 'POST', '/sim/accounts', 201, { body: { type: 'evm', label: 'before the tear' } })).account.id as string;
    await ok(first.base, 'POST', `/sim/accounts/${accountId}/deposits`, 201, { body: { profile: 'local_custody', amountAtomic: '123456789' } });
    const { key, secret } = await ok(first.base, 'POST', `/sim/accounts/${accountId}/keys`, 201, { body: { profile: 'local_custody', spendLimitAtomic: '1000', name: 'kept' } });
    const before = await ok(first.base, 'GET', `/sim/accounts/${accountId}`, 200);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    // The journal holds the committed lines (answers wait for them); add half of one more, as a crash mid-write leaves it.
    const text = await readFile(journal, 'utf8');
    expect(text.length).toBeGreaterThan(0);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]) as { s: number };
    const torn = JSON.stringify({ s: last.s + 1, o: [['accounts', 'torn-account', { id: 'torn-account', type: 'evm', label: 'torn', createdAt: '2026-01-01T00:00:00.000Z', recentRunStarts: [], activeRunIds: [] }]] });
    await appendFile(journal, torn.slice(0, Math.floor(torn.length / 2)));
    const committedBytes = Buffer.byteLength(text);
    expect((await stat(journal)).size).toBeGreaterThan(committedBytes);

    const second = await serve(ARGS(store));
    expect(second.readyLines[1]).toMatch(/^Existing store/);
    // The torn tail is cut off; the committed lines stay.
    expect((await stat(journal)).size).toBe(committedBytes);
    expect(await readFile(journal, 'utf8')).toBe(text);
    expect(await ok(second.base, 'GET', `/sim/accounts/${accountId}`, 200)).toEqual(before);
    expect((await call(second.base, 'GET', '/sim/accounts/torn-account')).status).toBe(400);
    const { accounts } = await ok(second.base, 'GET', '/sim/accounts', 200);
    expect((accounts as Array<{ id: string }>).map((a) => a.id)).not.toContain('torn-account');
    const me = await ok(second.base, 'GET', '/v1/buyer/key', 200, { key: secret });
    expect(me.key.id).toBe(key.id);

    // New writes append after the cut and survive a clean stop and another restart.
    const later = (await ok(second.base, 'POST', '/sim/accounts', 201, { body: { type: 'solana', label: 'after the tear' } })).account.id as string;
    expect(await stop(second, 'SIGTERM')).toEqual({ code: 0, signal: null });
    const third = await serve(ARGS(store));
    expect(await ok(third.base, 'GET', `/sim/accounts/${accountId}`, 200)).toEqual(before);
    expect((await ok(third.base, 'GET', `/sim/accounts/${later}`, 200)).account.label).toBe('after the tear');
    expect(await stop(third, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(second.stderr() + third.stderr()).toBe('');
  });
});
