import { describe, expect, it } from 'vitest';
import { groupOf } from '../../sim/chaos/profiles.ts';
import { ConductLog, type ConductLine, type NewConductLine } from '../../sim/domain/conduct/index.ts';
import { CONDUCT_RULES, gradeConduct } from '../../sim/domain/conduct/report.ts';

/**
 * Issue 17, "a test per rule, passing and failing": each rule judged on request
 * lines as the simulator records them, with the real times a client's waits take.
 * (The sample clients in test/conduct/clients.test.ts produce such lines over HTTP.)
 */

const KEY = '11111111-1111-4111-8111-111111111111';
let t = 0;
let seq = 0;

interface Step extends Partial<NewConductLine> {
  /** Milliseconds after the previous line. */
  after?: number;
  /** 'lost': no answer reached the client. */
  outcome?: number | 'reset' | 'lost';
}

/** Builds lines: method and route in one string, the rest as overrides. */
function lines(...steps: Array<[string, Step?]>): ConductLine[] {
  t = 0;
  seq = 0;
  return steps.map(([request, step = {}]) => {
    const [method, route] = request.split(' ');
    t += step.after ?? 0;
    const outcome = step.outcome ?? 200;
    const base: ConductLine = {
      seq: ++seq,
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
    };
    const { after: _a, outcome: _o, ...rest } = step;
    return { ...base, ...rest };
  });
}

function verdictOf(id: string, of: ConductLine[]) {
  const rule = CONDUCT_RULES.find((r) => r.id === id)!;
  return rule.judge(of);
}

const QUOTE = 'POST /v1/custody/quotes';
const ACCEPT = 'POST /v1/custody/quotes/:id/accept';
const RUN = 'GET /v1/runs/:id';
const KEY_READ = 'GET /v1/buyer/key';
const CANCEL = 'POST /v1/runs/:id/cancel';

describe('quote creation is never retried automatically (4.3, part 7)', () => {
  it('passes when a lost quote is followed, after a pause, by another quote', () => {
    expect(verdictOf('quote-creation-not-retried', lines([QUOTE, { outcome: 'lost', status: 201, bodyHash: 'B' }], [QUOTE, { after: 1500, bodyHash: 'B', status: 201 }])).verdict).toBe('pass');
  });
  it('fails when the same body is sent again right after a 500', () => {
    const j = verdictOf('quote-creation-not-retried', lines([QUOTE, { outcome: 500, bodyHash: 'B' }], [QUOTE, { after: 250, bodyHash: 'B', status: 201 }]));
    expect(j.verdict).toBe('fail');
    expect(j.evidence[0].note).toContain('sent again 250 ms later');
  });
  it('is not exercised when quote creation never failed', () => {
    expect(verdictOf('quote-creation-not-retried', lines([QUOTE, { outcome: 201, bodyHash: 'B' }])).verdict).toBe('not-exercised');
  });
});

describe('an accept is retried only with the same idempotencyKey (4.4, 4.5)', () => {
  it('passes when a lost accept is retried with the same key', () => {
    const j = verdictOf('accept-retried-with-same-key', lines([ACCEPT, { outcome: 'lost', idempotencyKeyHash: 'K1', reservedAtomic: '500' }], [ACCEPT, { after: 300, outcome: 202, idempotencyKeyHash: 'K1', reservedAtomic: '500' }]));
    expect(j.verdict).toBe('pass');
  });
  it('fails, with the cost, when a new quote is accepted under a new key after a lost accept', () => {
    const of = lines(
      [ACCEPT, { outcome: 'lost', idempotencyKeyHash: 'K1', reservedAtomic: '500', target: 'Q1' }],
      [QUOTE, { after: 1500, outcome: 201, target: 'Q' }],
      [ACCEPT, { after: 100, outcome: 202, idempotencyKeyHash: 'K2', reservedAtomic: '700', target: 'Q2' }],
    );
    const j = verdictOf('accept-retried-with-same-key', of);
    expect(j.verdict).toBe('fail');
    expect(j.evidence[0].note).toContain('a new quote was accepted with a new idempotencyKey; double reservation: 500 atomic units');
    const log = new ConductLog();
    for (const { seq: _s, ...line } of of) log.record(line);
    expect(gradeConduct(log).doubleReservedAtomic).toBe('500');
  });
  it('fails when the same quote is accepted under a new key after a reset', () => {
    const j = verdictOf('accept-retried-with-same-key', lines([ACCEPT, { outcome: 'reset', idempotencyKeyHash: 'K1' }], [ACCEPT, { after: 300, outcome: 202, idempotencyKeyHash: 'K2', reservedAtomic: '500' }]));
    expect(j.verdict).toBe('fail');
    expect(j.evidence[0].note).toContain('the same quote was accepted with a new idempotencyKey');
  });
});

describe('Retry-After is honoured (part 7, part 8)', () => {
  it('passes when the same request waits Retry-After', () => {
    expect(verdictOf('retry-after-honoured', lines([KEY_READ, { outcome: 429, retryAfterSeconds: 2, chaos: ['rate-limited'] }], [KEY_READ, { after: 2000 }])).verdict).toBe('pass');
  });
  it('fails when it comes back sooner', () => {
    const j = verdictOf('retry-after-honoured', lines([KEY_READ, { outcome: 429, retryAfterSeconds: 2 }], [KEY_READ, { after: 500 }]));
    expect(j.verdict).toBe('fail');
    expect(j.evidence[0].note).toContain('asked for 2 s; the same request came 500 ms later');
  });
});

describe('no tight loop on 503 (part 7)', () => {
  it('passes after a pause of a second or more', () => {
    expect(verdictOf('no-tight-loop-on-503', lines([KEY_READ, { outcome: 503 }], [KEY_READ, { after: 1200 }])).verdict).toBe('pass');
  });
  it('fails on an immediate repeat', () => {
    expect(verdictOf('no-tight-loop-on-503', lines([KEY_READ, { outcome: 503 }], [KEY_READ, { after: 40, outcome: 503 }], [KEY_READ, { after: 40 }])).verdict).toBe('fail');
  });
});

describe('GETs are retried with backoff and a bounded count (part 7)', () => {
  it('passes for 250 ms doubling', () => {
    expect(verdictOf('get-retried-with-backoff', lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 250, outcome: 'reset' }], [KEY_READ, { after: 500 }])).verdict).toBe('pass');
  });
  it('fails when a failed GET is never sent again', () => {
    const j = verdictOf('get-retried-with-backoff', lines([KEY_READ, { outcome: 500 }]));
    expect(j.verdict).toBe('fail');
    expect(j.evidence[0].note).toContain('never sent again');
  });
  it('fails for an immediate retry', () => {
    expect(verdictOf('get-retried-with-backoff', lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 5 }])).evidence[0].note).toContain('no backoff');
  });
  it('fails for a fixed interval', () => {
    const j = verdictOf('get-retried-with-backoff', lines([KEY_READ, { outcome: 500 }], [KEY_READ, { after: 300, outcome: 500 }], [KEY_READ, { after: 300, outcome: 500 }], [KEY_READ, { after: 300 }]));
    expect(j.evidence[0].note).toContain('fixed interval');
  });
  it('fails without a bound', () => {
    const steps: Array<[string, Step]> = [[KEY_READ, { outcome: 500 }]];
    for (let i = 0; i < 10; i += 1) steps.push([KEY_READ, { after: 250 * 2 ** i, outcome: 500 }]);
    expect(verdictOf('get-retried-with-backoff', lines(...steps)).evidence[0].note).toContain('without a success');
  });
});

describe('polling starts near 1 s, backs off towards 10 s and stops at a terminal status (4.6)', () => {
  const poll = (after: number, runTerminal = false): [string, Step] => [RUN, { after, runTerminal }];
  it('passes for 1, 2, 4, 8 s and a stop at the terminal status', () => {
    expect(verdictOf('polling-backs-off', lines(poll(0), poll(1000), poll(2000), poll(4000), poll(8000, true))).verdict).toBe('pass');
  });
  it('fails for a fixed interval', () => {
    const j = verdictOf('polling-backs-off', lines(poll(0), poll(1000), poll(1000), poll(1000), poll(1000, true)));
    expect(j.evidence[0].note).toContain('fixed interval');
  });
  it('fails when polling too soon', () => {
    expect(verdictOf('polling-backs-off', lines(poll(0), poll(100, true))).evidence[0].note).toContain('polled again 100 ms');
  });
  it('fails when reading on after a terminal status', () => {
    expect(verdictOf('polling-backs-off', lines(poll(0), poll(1000, true), poll(2000, true))).evidence[0].note).toContain('after it answered a terminal status');
  });
});

describe('refused requests are not repeated unchanged (part 7)', () => {
  it('passes when the request changes', () => {
    expect(verdictOf('refusals-not-repeated', lines([QUOTE, { outcome: 400, bodyHash: 'B1' }], [QUOTE, { after: 10, outcome: 201, bodyHash: 'B2' }])).verdict).toBe('pass');
  });
  it('fails when the same request is sent again', () => {
    expect(verdictOf('refusals-not-repeated', lines([RUN, { outcome: 404 }], [RUN, { after: 1000, outcome: 404 }])).verdict).toBe('fail');
  });
});

describe('cancel, stop and acknowledge are retried (part 7)', () => {
  it('passes when a lost cancel is sent again after a pause', () => {
    expect(verdictOf('actions-retried', lines([CANCEL, { outcome: 'lost', status: 200 }], [CANCEL, { after: 300 }])).verdict).toBe('pass');
  });
  it('fails when a lost cancel is never sent again', () => {
    expect(verdictOf('actions-retried', lines([CANCEL, { outcome: 'reset' }], [KEY_READ, { after: 300 }])).verdict).toBe('fail');
  });
});

describe('the key stays within its rate limit (part 8)', () => {
  it('passes when no request was refused for rate (a chaos 429 does not count)', () => {
    expect(verdictOf('within-rate-limit', lines([KEY_READ, { outcome: 429, chaos: ['rate-limited'] }], [KEY_READ, { after: 1000 }])).verdict).toBe('pass');
  });
  it('fails on the simulator’s own 429', () => {
    expect(verdictOf('within-rate-limit', lines([KEY_READ], [KEY_READ, { outcome: 429 }])).verdict).toBe('fail');
  });
});

describe('the report', () => {
  it('scores rules passed out of rules exercised, and lists every rule', () => {
    const log = new ConductLog();
    for (const { seq: _s, ...line } of lines([KEY_READ, { outcome: 503 }], [KEY_READ, { after: 40 }])) log.record(line);
    const report = gradeConduct(log);
    expect(report.rules.map((r) => r.id)).toEqual(CONDUCT_RULES.map((r) => r.id));
    expect(report.rules.every((r) => /\d/.test(r.spec))).toBe(true);
    // Exercised: the 503 loop (fail), the rate limit (pass); the rest not exercised.
    expect(report.rules.filter((r) => r.verdict !== 'not-exercised').map((r) => [r.id, r.verdict])).toEqual([
      ['no-tight-loop-on-503', 'fail'],
      ['within-rate-limit', 'pass'],
    ]);
    expect(report.score).toBe(50);
    expect(gradeConduct(new ConductLog()).score).toBe(100);
  });
});
