import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { always, QUOTE_BODY, startLive, type LiveSimulator } from './support.ts';

/** Issue 17, "a test per chaos kind": each fault, forced with probability 1, over a real connection. */

let live: LiveSimulator;
beforeEach(async () => {
  live = await startLive();
});
afterEach(() => live.sim.destroy());

const quote = async () => {
  const answer = await live.call('POST', '/v1/custody/quotes', QUOTE_BODY);
  if (answer === 'lost' || answer.status !== 201) throw new Error(`quote: ${JSON.stringify(answer)}`);
  return answer.body.quote as { id: string; contractHash: string; maximumBuyerDebitAtomic: string };
};
const accept = (q: { id: string; contractHash: string }, idempotencyKey: string) =>
  live.call('POST', `/v1/custody/quotes/${q.id}/accept`, { acceptedContractHash: q.contractHash, idempotencyKey });

describe('chaos kinds', () => {
  it('rate-limited: 429 with Retry-After and the spec error body; the request was not carried out', async () => {
    await live.setChaos(always('quote-create', 'rate-limited'));
    const answer = await live.call('POST', '/v1/custody/quotes', QUOTE_BODY);
    expect(answer).not.toBe('lost');
    if (answer === 'lost') return;
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(answer.body).toEqual({ error: { code: 'request_rejected', message: 'Too many requests. Try again shortly.' } });
    const [line] = await live.lines();
    expect(line).toMatchObject({ method: 'POST', route: '/v1/custody/quotes', status: 429, answered: true, chaos: ['rate-limited'], retryAfterSeconds: 2 });
  });

  it('unavailable: 503 with the spec error body', async () => {
    await live.setChaos(always('read', 'unavailable'));
    const answer = await live.call('GET', '/v1/buyer/key');
    expect(answer).toMatchObject({ status: 503, body: { error: { code: 'service_unavailable', message: expect.any(String) } } });
  });

  it('internal-error: 500 internal_error', async () => {
    await live.setChaos(always('read', 'internal-error'));
    expect(await live.call('GET', '/v1/buyer/key')).toMatchObject({ status: 500, body: { error: { code: 'internal_error', message: 'An unexpected error occurred.' } } });
  });

  it('never touches /sim', async () => {
    await live.setChaos({ name: 'everything', groups: { read: { 'internal-error': 1 }, action: { reset: 1 } } });
    expect(await live.call('GET', '/sim/clock')).toMatchObject({ status: 200 });
    expect(await live.call('POST', '/sim/clock/advance', { seconds: 1 })).toMatchObject({ status: 200 });
    expect((await live.call('GET', '/sim/chaos')) as any).toMatchObject({ status: 200, body: { profile: { name: 'everything' }, decided: 0 } });
  });

  it('latency: the answer is the real one, and the line says it was delayed', async () => {
    await live.setChaos({ name: 'slow', groups: { read: { latency: { probability: 1, minMs: 30, maxMs: 60 } } } });
    expect(await live.call('GET', '/v1/buyer/key')).toMatchObject({ status: 200, body: { key: { profile: 'local_custody' } } });
    expect((await live.lines())[0]).toMatchObject({ status: 200, answered: true, chaos: ['latency'] });
  });

  it('slow-body: the whole answer arrives, in pieces', async () => {
    await live.setChaos(always('read', 'slow-body'));
    const answer = await live.call('GET', '/v1/public/agents?limit=3');
    expect(answer).toMatchObject({ status: 200, body: { agents: expect.any(Array) } });
    expect((await live.lines())[0]).toMatchObject({ status: 200, answered: true, chaos: ['slow-body'] });
  });

  it('reset: the connection ends before the request is handled, and nothing is reserved', async () => {
    const q = await quote();
    const before = await live.accountOf();
    await live.setChaos(always('accept', 'reset'));
    expect(await accept(q, 'reset-key-1')).toBe('lost');
    expect(await live.accountOf()).toEqual(before);
    const accepts = (await live.lines()).filter((l) => l.group === 'accept');
    expect(accepts).toEqual([expect.objectContaining({ status: null, answered: false, chaos: ['reset'] })]);
    expect(accepts[0].reservedAtomic).toBeUndefined();
    // Refused before its handler fixed the request's instant: the line takes the simulated clock's.
    const clock = await live.call('GET', '/sim/clock');
    if (clock === 'lost') throw new Error('clock read lost');
    expect(accepts[0].at).toBe(clock.body.now);
  });

  it('lost-after-commit, retried with the same key: the original run, reserved once', async () => {
    const q = await quote();
    await live.setChaos(always('accept', 'lost-after-commit'));
    expect(await accept(q, 'lost-key-1')).toBe('lost');
    // The change was applied and is durable before the connection was destroyed.
    expect((await live.accountOf()).reservedAtomic).toBe(q.maximumBuyerDebitAtomic);
    await live.setChaos(null);
    const retried = await accept(q, 'lost-key-1');
    expect(retried).toMatchObject({ status: 202, body: { reservation: { quoteId: q.id, maximumAtomic: q.maximumBuyerDebitAtomic } } });
    expect((await live.accountOf()).reservedAtomic).toBe(q.maximumBuyerDebitAtomic);
    const rule = (await live.report(live.keyId)).rules.find((r: { id: string }) => r.id === 'accept-retried-with-same-key');
    expect(rule.verdict).toBe('pass');
  });

  it('lost-after-commit, then a new quote under a new key: the lost run named with its cost, the rule failed', async () => {
    const q = await quote();
    await live.setChaos(always('accept', 'lost-after-commit'));
    expect(await accept(q, 'lost-key-1')).toBe('lost');
    await live.setChaos(null);
    const again = await quote();
    const bought = await accept(again, 'lost-key-2');
    if (bought === 'lost') throw new Error('accept lost');
    expect(bought.status).toBe(202);
    const twice = BigInt(q.maximumBuyerDebitAtomic) + BigInt(again.maximumBuyerDebitAtomic);
    expect((await live.accountOf()).reservedAtomic).toBe(twice.toString());
    const report = await live.report(live.keyId);
    expect(report.lostAnswers.runs).toEqual([
      expect.objectContaining({ keyId: live.keyId, reservedAtomic: q.maximumBuyerDebitAtomic, chargedAtomic: '0', heldAtomic: q.maximumBuyerDebitAtomic, boughtInstead: bought.body.run.id }),
    ]);
    expect(report.lostAnswers.runs[0].runId).not.toBe(bought.body.run.id);
    const rule = report.rules.find((r: { id: string }) => r.id === 'accept-retried-with-same-key');
    expect(rule.verdict).toBe('fail');
    expect(rule.evidence[0].note).toContain('another quote');
  });

  it('lost-after-commit, the same quote again under a new key (409, nothing reserved), then a new purchase: the lost run and its cost equal the ledger once settled', async () => {
    const q = await quote();
    await live.setChaos(always('accept', 'lost-after-commit'));
    expect(await accept(q, 'naive-key-1')).toBe('lost');
    await live.setChaos(null);
    const refused = await accept(q, 'naive-key-2');
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'quote_already_accepted' } } });
    const again = await quote();
    const bought = await accept(again, 'naive-key-3');
    if (bought === 'lost') throw new Error('accept lost');
    await live.call('POST', '/sim/clock/advance', { seconds: 3600 });
    const report = await live.report(live.keyId);
    const [lostRun] = report.lostAnswers.runs;
    expect(report.lostAnswers.runs).toHaveLength(1);
    expect(lostRun).toMatchObject({ reservedAtomic: q.maximumBuyerDebitAtomic, boughtInstead: bought.body.run.id, heldAtomic: '0' });
    expect(lostRun.status).toMatch(/^(succeeded|partial|failed)$/);
    // The 409 reserved nothing: no line of it carries a reservation, and the rule's note says so.
    const lines = await live.lines();
    expect(lines.filter((l) => l.status === 409).every((l) => l.reservedAtomic === undefined && l.runId === undefined)).toBe(true);
    const rule = report.rules.find((r: { id: string }) => r.id === 'accept-retried-with-same-key');
    expect(rule.evidence[0].note).toContain('answered 409: nothing reserved by it');
    // What the ledger shows for that run: every charge and reconciliation entry, summed.
    const eth = live.sim.demo.find((d) => d.profile === 'local_custody')!;
    const ledger = await live.call('GET', `/sim/accounts/${eth.accountId}/ledger`);
    if (ledger === 'lost') throw new Error('ledger read lost');
    const charged = ledger.body.entries
      .filter((e: { runId: string | null; kind: string }) => e.runId === lostRun.runId && (e.kind === 'charge' || e.kind === 'reconcile'))
      .reduce((sum: bigint, e: { amountAtomic: string }) => sum + BigInt(e.amountAtomic), 0n);
    expect(report.lostAnswers.chargedAtomic).toBe(charged.toString());
    expect(report.lostAnswers.chargedAtomic).toBe(lostRun.chargedAtomic);
    expect(BigInt(lostRun.chargedAtomic)).toBeGreaterThan(0n);
  });

  it('conduct lines say whether a run read answered a terminal status (the polling rule needs it)', async () => {
    const q = await quote();
    const accepted = await accept(q, 'terminal-1');
    if (accepted === 'lost') throw new Error('accept lost');
    const runId = accepted.body.run.id;
    await live.call('GET', `/v1/runs/${runId}`);
    await live.call('POST', '/sim/clock/advance', { seconds: 900 });
    const ended = await live.call('GET', `/v1/runs/${runId}`);
    expect(ended).toMatchObject({ status: 200, body: { run: { status: expect.stringMatching(/^(succeeded|partial|failed)$/) } } });
    const reads = (await live.lines()).filter((l) => l.route === '/v1/runs/:id');
    expect(reads.map((l) => l.runTerminal)).toEqual([false, true]);
    expect(reads[0].target).toBe(reads[1].target);
    expect(reads[0].target).not.toContain(runId);
  });

  it('a run read refused by chaos and its retry name the same target; another run, another target', async () => {
    const runs: string[] = [];
    for (const key of ['target-1', 'target-2']) {
      const accepted = await accept(await quote(), key);
      if (accepted === 'lost') throw new Error('accept lost');
      runs.push(accepted.body.run.id);
    }
    await live.setChaos(always('read', 'rate-limited'));
    expect(await live.call('GET', `/v1/runs/${runs[0]}`)).toMatchObject({ status: 429 });
    await live.setChaos(null);
    for (const id of [runs[0], runs[0], runs[1]]) expect(await live.call('GET', `/v1/runs/${id}`)).toMatchObject({ status: 200 });
    const reads = (await live.lines()).filter((l) => l.route === '/v1/runs/:id');
    expect(reads.map((l) => l.status)).toEqual([429, 200, 200, 200]);
    expect(new Set(reads.slice(0, 3).map((l) => l.target)).size).toBe(1);
    expect(reads[3].target).not.toBe(reads[0].target);
  });

  it('a run read spelled otherwise (upper-case id, percent-encoded path) is still tracked, each spelling as its own target, none holding the id', async () => {
    const accepted = await accept(await quote(), 'spelling-1');
    if (accepted === 'lost') throw new Error('accept lost');
    const id: string = accepted.body.run.id;
    const spellings = [`/v1/runs/${id}`, `/v1/runs/${id.toUpperCase()}`, `/v1/%72uns/${id}`];
    for (const path of [...spellings, ...spellings]) expect(await live.call('GET', path)).toMatchObject({ status: 200, body: { run: { id } } });
    const reads = (await live.lines()).filter((l) => l.route === '/v1/runs/:id');
    expect(reads).toHaveLength(6);
    expect(reads.map((l) => l.runTerminal)).toEqual([false, false, false, false, false, false]);
    const targets = reads.map((l) => l.target);
    expect(targets.slice(3)).toEqual(targets.slice(0, 3));
    expect(new Set(targets.slice(0, 3)).size).toBe(3);
    for (const target of targets) expect(target.toLowerCase()).not.toContain(id.slice(0, 8));
  });

  it('latency before each fault, on a route that sends its own answer (a run read) and on ones that return it or throw', async () => {
    const q = await quote();
    const accepted = await accept(q, 'latency-1');
    if (accepted === 'lost') throw new Error('accept lost');
    const paths = [`/v1/runs/${accepted.body.run.id}`, '/v1/buyer/key', `/v1/runs/${accepted.body.run.id}/receipt`];
    const seen: string[] = [];
    for (const kind of ['slow-body', 'lost-after-commit', 'internal-error']) {
      await live.setChaos({ name: kind, slowBodyMs: 50, groups: { read: { [kind]: 1, latency: { probability: 1, minMs: 5, maxMs: 10 } } } });
      for (const path of paths) {
        const answer = await live.call('GET', path);
        seen.push(answer === 'lost' ? 'lost' : `${answer.status} ${Object.keys(answer.body ?? {}).join(',')}`);
      }
    }
    // The slow bodies are whole (the run, the key, the receipt's 404); the lost ones lost; the 500s the spec's.
    expect(seen).toEqual(['200 run,events', '200 key', '404 error', 'lost', 'lost', 'lost', '500 error', '500 error', '500 error']);
  });

  it('lost-after-commit on a quote: the quote exists, the client never saw it', async () => {
    await live.setChaos(always('quote-create', 'lost-after-commit'));
    expect(await live.call('POST', '/v1/custody/quotes', QUOTE_BODY)).toBe('lost');
    expect((await live.lines())[0]).toMatchObject({ status: 201, answered: false, chaos: ['lost-after-commit'] });
  });
});
