import { describe, expect, it } from 'vitest';
import { groupOf } from '../../sim/drill/profiles.ts';
import type { ConductLine } from '../../sim/drill/line.ts';
import { ConductLog } from '../../sim/drill/log.ts';
import { CONDUCT_RULES, gradeConduct } from '../../sim/drill/report.ts';
import type { KeyContext } from '../../sim/drill/rule.ts';

/**
 * Each rule of docs/drill.md ("The rules") on request lines built by hand, with the
 * real times a client's waits take: not exercised when its situation never arose, a
 * pass only with evidence, a fail for each way its text says it fails, and one fault
 * failing one rule.
 */

const KEY = '11111111-1111-4111-8111-111111111111';

interface Step extends Partial<ConductLine> {
  /** Milliseconds after the previous line. */
  after?: number;
  /** 'reset': no answer at all; 'lost': answered but never delivered. */
  outcome?: number | 'reset' | 'lost';
}

/** Builds lines: method and route in one string, the rest as overrides. */
function lines(...steps: Array<[string, Step?]>): ConductLine[] {
  let t = 0;
  return steps.map(([request, step = {}], i) => {
    const [method, route] = request.split(' ');
    t += step.after ?? 0;
    const outcome = step.outcome ?? (method === 'POST' && route.endsWith('/accept') ? 202 : 200);
    const { after: _a, outcome: _o, ...rest } = step;
    return {
      seq: (i + 1) * 10,
      keyId: KEY,
      method,
      route,
      group: groupOf(method, route),
      at: new Date(Date.UTC(2026, 0, 1) + t).toISOString(),
      realMs: t,
      status: outcome === 'reset' ? null : outcome === 'lost' ? (step.status ?? 202) : outcome,
      answered: outcome !== 'reset' && outcome !== 'lost',
      chaos: outcome === 'reset' ? ['reset'] : outcome === 'lost' ? ['lost-after-commit'] : [],
      target: 'T1',
      ...rest,
    };
  });
}

const noMoves: KeyContext = { movedBetween: () => false, rateLimitPerMinute: 60 };
const judge = (id: string, of: ConductLine[], context: KeyContext = noMoves) => CONDUCT_RULES.find((r) => r.id === id)!.judge(of, context);
const verdict = (id: string, of: ConductLine[], context?: KeyContext) => {
  const j = judge(id, of, context);
  // A pass always shows the lines that showed it.
  if (j.verdict === 'pass') expect(j.evidence.length).toBeGreaterThan(0);
  return j.verdict;
};
/** The rules a set of lines fails: one fault, one rule. */
const failing = (of: ConductLine[], context: KeyContext = noMoves) => CONDUCT_RULES.filter((r) => r.judge(of, context).verdict === 'fail').map((r) => r.id);

const QUOTE = 'POST /v1/custody/quotes';
const ACCEPT = 'POST /v1/custody/quotes/:id/accept';
const RUN = 'GET /v1/runs/:id';
const KEY_READ = 'GET /v1/buyer/key';
const CANCEL = 'POST /v1/runs/:id/cancel';
const B = { bodyHash: 'B1' };

describe('quote-creation-not-retried (4.3)', () => {
  it('not exercised by quotes that were answered, or refused 429/503 (those waits are other rules)', () => {
    expect(verdict('quote-creation-not-retried', lines([QUOTE, { ...B, outcome: 201 }], [QUOTE, { ...B, outcome: 503 }], [QUOTE, { ...B, after: 100, outcome: 201 }]))).toBe('not-exercised');
  });
  it('passes when a lost quote is followed by another after a pause, fails on the same body within 1 s', () => {
    expect(verdict('quote-creation-not-retried', lines([QUOTE, { ...B, outcome: 'lost', status: 201 }], [QUOTE, { ...B, after: 1500, outcome: 201 }]))).toBe('pass');
    const retried = lines([QUOTE, { ...B, outcome: 500 }], [QUOTE, { ...B, after: 250, outcome: 201 }]);
    expect(failing(retried)).toEqual(['quote-creation-not-retried']);
  });
});

describe('accept-retried-with-same-key (4.4)', () => {
  const lost = { idempotencyKeyHash: 'K1', outcome: 'lost' as const, runId: 'R1', reservedAtomic: '100' };
  it('passes when the next accept carries the same key', () => {
    expect(verdict('accept-retried-with-same-key', lines([ACCEPT, lost], [ACCEPT, { idempotencyKeyHash: 'K1', after: 300, runId: 'R1', reservedAtomic: '100' }]))).toBe('pass');
  });
  it('fails on another key, the same quote (a 409 that reserved nothing) or another quote, and when no accept follows', () => {
    const sameQuote = lines([ACCEPT, lost], [ACCEPT, { idempotencyKeyHash: 'K2', after: 300, outcome: 409 }]);
    expect(failing(sameQuote)).toEqual(['accept-retried-with-same-key']);
    expect(judge('accept-retried-with-same-key', sameQuote).evidence[0].note).toMatch(/the same quote was accepted with a new idempotencyKey \(answered 409: nothing reserved by it\)/);
    expect(verdict('accept-retried-with-same-key', lines([ACCEPT, lost], [ACCEPT, { idempotencyKeyHash: 'K2', target: 'T2', after: 300 }]))).toBe('fail');
    expect(verdict('accept-retried-with-same-key', lines([ACCEPT, { ...lost, outcome: 'reset', runId: undefined }]))).toBe('fail');
  });
  it('is not exercised by a 429 or 503 accept (refused, outcome known)', () => {
    expect(verdict('accept-retried-with-same-key', lines([ACCEPT, { idempotencyKeyHash: 'K1', outcome: 429, retryAfterSeconds: 1 }], [ACCEPT, { idempotencyKeyHash: 'K2', after: 2000 }]))).toBe('not-exercised');
  });
});

describe('retry-after-honoured and no-tight-loop-on-503 (part 7)', () => {
  it('judge only a re-send of the same request after their answer', () => {
    expect(verdict('retry-after-honoured', lines([KEY_READ, { outcome: 429, retryAfterSeconds: 2, chaos: ['rate-limited'] }]))).toBe('not-exercised');
    expect(verdict('retry-after-honoured', lines([KEY_READ, { outcome: 429, retryAfterSeconds: 2, chaos: ['rate-limited'] }], [KEY_READ, { after: 2000 }]))).toBe('pass');
    expect(failing(lines([KEY_READ, { outcome: 429, retryAfterSeconds: 2, chaos: ['rate-limited'] }], [KEY_READ, { after: 600 }]))).toEqual(['retry-after-honoured']);
    expect(verdict('no-tight-loop-on-503', lines([KEY_READ, { outcome: 503 }], [KEY_READ, { after: 1200 }]))).toBe('pass');
    expect(failing(lines([KEY_READ, { outcome: 503 }], [KEY_READ, { after: 100 }]))).toEqual(['no-tight-loop-on-503']);
  });
});

describe('get-retried-with-backoff (part 7)', () => {
  it('is not exercised by polls, 429s or 503s', () => {
    const polls = lines([RUN, { runTerminal: false }], [RUN, { after: 1000, runTerminal: false }], [RUN, { after: 2000, runTerminal: true }]);
    expect(verdict('get-retried-with-backoff', polls)).toBe('not-exercised');
    expect(verdict('get-retried-with-backoff', lines([KEY_READ, { outcome: 503 }], [KEY_READ, { after: 1500 }]))).toBe('not-exercised');
  });
  it('passes the reference client: 250 ms then 500 ms', () => {
    expect(verdict('get-retried-with-backoff', lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 250, outcome: 'reset' }], [KEY_READ, { after: 500 }]))).toBe('pass');
  });
  it('fails a GET never sent again, even when the client polls', () => {
    const steps = lines([KEY_READ, { outcome: 500 }], [RUN, { after: 100, runTerminal: false }], [RUN, { after: 1000, runTerminal: false }], [RUN, { after: 2000, runTerminal: true }]);
    expect(failing(steps)).toEqual(['get-retried-with-backoff']);
  });
  it('fails a first retry under 200 ms, and a second retry in a row that waits no longer than the first (a steady interval)', () => {
    expect(failing(lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 50 }]))).toEqual(['get-retried-with-backoff']);
    const steady = lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 300, outcome: 'reset' }], [KEY_READ, { after: 300 }]);
    expect(failing(steady)).toEqual(['get-retried-with-backoff']);
    expect(judge('get-retried-with-backoff', steady).evidence[0].note).toMatch(/waited no longer than the one before/);
  });
  it('fails more than 8 retries in a row', () => {
    const steps: Array<[string, Step?]> = [[KEY_READ, { outcome: 500 }]];
    for (let i = 1; i <= 9; i += 1) steps.push([KEY_READ, { after: 200 * 2 ** i, outcome: i === 9 ? 200 : 500 }]);
    expect(verdict('get-retried-with-backoff', lines(...steps))).toBe('fail');
  });
});

describe('polling-backs-off (4.6)', () => {
  it('passes 1 s doubling and no read after a terminal answer', () => {
    expect(verdict('polling-backs-off', lines([RUN, { runTerminal: false }], [RUN, { after: 1000, runTerminal: false }], [RUN, { after: 2000, runTerminal: false }], [RUN, { after: 4000, runTerminal: true }]))).toBe('pass');
  });
  it('fails a poll under 500 ms, a steady interval, and a read after a terminal answer', () => {
    expect(failing(lines([RUN, { runTerminal: false }], [RUN, { after: 300, runTerminal: true }]))).toEqual(['polling-backs-off']);
    expect(verdict('polling-backs-off', lines([RUN, { runTerminal: false }], [RUN, { after: 1000, runTerminal: false }], [RUN, { after: 1000, runTerminal: false }], [RUN, { after: 1000, runTerminal: true }]))).toBe('fail');
    expect(failing(lines([RUN, { runTerminal: true }], [RUN, { after: 5000, runTerminal: true }]))).toEqual(['polling-backs-off']);
  });
  it('a read right after a clock move is the client looking once, not a poll', () => {
    const steps = lines([RUN, { runTerminal: false }], [RUN, { after: 100, runTerminal: false }], [RUN, { after: 150, runTerminal: true }]);
    const moved: KeyContext = { movedBetween: () => true, rateLimitPerMinute: 60 };
    expect(verdict('polling-backs-off', steps, moved)).toBe('pass');
  });
});

describe('refusals-not-repeated (part 7)', () => {
  it('fails the same request unchanged as the very next request, passes otherwise', () => {
    expect(failing(lines([KEY_READ, { outcome: 404 }], [KEY_READ, { after: 2000, outcome: 404 }]))).toEqual(['refusals-not-repeated']);
    expect(verdict('refusals-not-repeated', lines([ACCEPT, { idempotencyKeyHash: 'K1', outcome: 409 }], [QUOTE, { after: 100, outcome: 201 }]))).toBe('pass');
    expect(verdict('refusals-not-repeated', lines([ACCEPT, { outcome: 409 }], [ACCEPT, { after: 100, outcome: 409 }]), { movedBetween: () => true, rateLimitPerMinute: 60 })).toBe('pass');
  });
  it('is not exercised by refusals chaos made', () => {
    expect(verdict('refusals-not-repeated', lines([KEY_READ, { outcome: 200 }]))).toBe('not-exercised');
  });
});

describe('actions-retried (part 7)', () => {
  it('passes a lost cancel sent again after a pause; fails one never sent again or sent at once', () => {
    expect(verdict('actions-retried', lines([CANCEL, { outcome: 'lost', status: 200 }], [CANCEL, { after: 300 }]))).toBe('pass');
    expect(failing(lines([CANCEL, { outcome: 'reset' }]))).toEqual(['actions-retried']);
    expect(failing(lines([CANCEL, { outcome: 500 }], [CANCEL, { after: 20 }]))).toEqual(['actions-retried']);
  });
});

describe('within-rate-limit (part 8)', () => {
  it('is not exercised by a few requests, passes near the limit, fails on a rate 429 that chaos did not make', () => {
    expect(verdict('within-rate-limit', lines([KEY_READ], [KEY_READ, { after: 1000 }]))).toBe('not-exercised');
    const busy = lines(...Array.from({ length: 30 }, () => [KEY_READ, { after: 1000 }] as [string, Step]));
    expect(verdict('within-rate-limit', busy)).toBe('pass');
    expect(failing(lines([KEY_READ, { outcome: 429, retryAfterSeconds: 5 }]))).toEqual(['within-rate-limit']);
    expect(verdict('within-rate-limit', lines([KEY_READ, { outcome: 429, retryAfterSeconds: 5, chaos: ['rate-limited'] }]))).toBe('not-exercised');
  });
});

describe('the report', () => {
  it('keeps not-exercised rules out of the score, and says which keys it did not judge because lines were dropped', () => {
    const log = new ConductLog({ linesPerKey: 10 });
    for (const line of lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 250 }])) log.record(line);
    const money = () => ({ status: 'succeeded', reservedAtomic: '0', chargedAtomic: '0', heldAtomic: '0' });
    const report = gradeConduct(log, money);
    expect(report.score).toBe(100);
    expect(report.rules.filter((r) => r.verdict === 'pass').map((r) => r.id)).toEqual(['get-retried-with-backoff']);
    for (let i = 0; i < 20; i += 1) log.record({ ...lines([KEY_READ])[0], keyId: 'k2' });
    const truncated = gradeConduct(log, money, 'k2');
    expect(truncated.truncated).toEqual([{ keyId: 'k2', dropped: expect.any(Number) }]);
    expect(truncated.rules.every((r) => r.verdict === 'not-exercised')).toBe(true);
    expect(truncated.lostAnswers.complete).toBe(false);
  });
});
