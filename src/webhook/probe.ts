import { randomUUID, randomBytes } from 'node:crypto';
import type { ClockReading } from './clock.ts';
import { signDelivery } from './verify.ts';
import { hintFor, type ProbeCaseName } from './probe-hints.ts';

/**
 * The receiver test kit: sends a user's receiver the cases spec 6.2's receiver
 * rules demand it handle, and reports which it got right. It judges only what
 * can be seen from outside: the status, the time to answer, the challenge
 * echo. An answer's wording is the receiver's own business, so it is never
 * read as evidence, only shown (`answered`) so a failing case can be
 * understood; what a case cannot show is said in `unseen`.
 */
export interface ProbeCase {
  name: string;
  /** What the probe sent, in words: which secret signed it, its timestamp and by which clock. */
  sent: string;
  expectation: string;
  passed: boolean;
  detail: string;
  /** The start of the answer's body, on one line, when there was one. */
  answered?: string;
  /** What most likely went wrong (./probe-hints.ts): every failing case has one. */
  hint?: string;
  /** What this case cannot show from outside the receiver. */
  unseen?: string;
}

interface Answer {
  status: number;
  body: string;
  ms: number;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Answer | { error: string; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: await response.text(), ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { error: (error as Error).name === 'TimeoutError' ? 'no answer within 5 s' : (error as Error).message, ms: Math.round(performance.now() - started) };
  }
}

const is2xx = (a: Answer | { error: string }) => 'status' in a && a.status >= 200 && a.status < 300;
const describe = (a: Answer | { error: string; ms: number }) => ('status' in a ? `answered ${a.status} in ${a.ms} ms` : a.error);
const excerpt = (body: string) => body.replace(/\s+/g, ' ').trim().slice(0, 160);

/**
 * `now` is the instant the probe signs with: a receiver judges timestamps by
 * its own clock, so a reading that names its clock (./clock.ts) lets a
 * failure say which clock the receiver disagreed with.
 */
export async function probeReceiver(url: string, secret: string, now: number | ClockReading): Promise<ProbeCase[]> {
  const { seconds: nowSeconds, source } = typeof now === 'number' ? { seconds: now, source: 'probe clock' } : now;
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();
  const signedAt = (offset = 0) => `timestamp ${nowSeconds + offset} (${at(nowSeconds + offset)}${offset === 0 ? `, now by the ${source}` : `, ${Math.abs(offset) / 60} min ${offset < 0 ? 'before' : 'after'} now by the ${source}`})`;
  const eventBody = (eventId: string) =>
    JSON.stringify({ type: 'monitor.event', eventId, monitorId: randomUUID(), monitorName: 'understudy probe', chain: 'base', ruleId: 'probe', status: 'active', observedAt: at(nowSeconds) });
  const cases: ProbeCase[] = [];
  const check = (name: ProbeCaseName, sent: string, expectation: string, answer: Answer | { error: string; ms: number }, passed: boolean, unseen?: string) => {
    const answered = 'body' in answer && answer.body ? excerpt(answer.body) : '';
    const hint = passed ? null : hintFor(name, answer, expectation.startsWith('refused'), source);
    cases.push({ name, sent, expectation, passed, detail: describe(answer), ...(answered ? { answered } : {}), ...(hint ? { hint } : {}), ...(unseen ? { unseen } : {}) });
  };

  const validId = randomUUID();
  const validBody = eventBody(randomUUID());
  const valid = await post(url, signDelivery(secret, validId, nowSeconds, validBody), validBody);
  check('valid delivery', `a monitor.event signed with your secret, event id ${validId}, ${signedAt()}`, '2xx within 5 s', valid, is2xx(valid));

  const tamperedId = randomUUID();
  const original = eventBody(randomUUID());
  const tampered = await post(url, signDelivery(secret, tamperedId, nowSeconds, original), original.replace('understudy probe', 'understudy probf'));
  check('tampered body', `a monitor.event signed with your secret, then one byte of its body changed (monitorName), ${signedAt()}`, 'refused (not 2xx)', tampered, !is2xx(tampered) && !('error' in tampered));

  const wrongId = randomUUID();
  const wrongBody = eventBody(randomUUID());
  const wrong = await post(url, signDelivery(`whsec_${randomBytes(32).toString('base64url')}`, wrongId, nowSeconds, wrongBody), wrongBody);
  check('wrong secret', `a monitor.event signed with a random secret that is not yours, ${signedAt()}`, 'refused (not 2xx)', wrong, !is2xx(wrong) && !('error' in wrong));

  for (const [name, offset] of [['stale timestamp (6 min old)', -360], ['future timestamp (6 min ahead)', 360]] as const) {
    const id = randomUUID();
    const body = eventBody(randomUUID());
    const answer = await post(url, signDelivery(secret, id, nowSeconds + offset, body), body);
    check(name, `a monitor.event correctly signed with your secret, ${signedAt(offset)}; spec 6.2 allows 5 min`, 'refused (not 2xx)', answer, !is2xx(answer) && !('error' in answer));
  }

  // A repeat keeps the event id with a fresh signature, as a retry does. Spec 6.2: drop it, but answer 2xx or it is sent again.
  const repeat = await post(url, signDelivery(secret, validId, nowSeconds, validBody), validBody);
  check(
    'repeated event id',
    `the valid delivery again (same event id ${validId}), signed with your secret afresh as a retry is, ${signedAt()}`,
    '2xx within 5 s (a retry is acknowledged)',
    repeat,
    is2xx(repeat),
    'whether the repeat was processed a second time cannot be seen from outside: your receiver must record x-service-event-id and skip ids it has handled',
  );

  const challenge = randomBytes(16).toString('hex');
  const challengeBody = JSON.stringify({ type: 'service.destination.verification', destinationId: randomUUID(), challenge });
  const echo = await post(url, signDelivery(secret, randomUUID(), nowSeconds, challengeBody), challengeBody);
  let echoed = false;
  if ('status' in echo && is2xx(echo)) {
    try {
      echoed = JSON.parse(echo.body).challenge === challenge;
    } catch {
      echoed = false;
    }
  }
  check('ownership challenge', `a service.destination.verification with challenge ${challenge}, signed with your secret, ${signedAt()}`, `2xx with JSON {"challenge":"${challenge}"}`, echo, echoed);
  return cases;
}
