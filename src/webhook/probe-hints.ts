/**
 * The likely cause of each failing probe case, judged from what can be seen
 * from outside: the status, or that nothing answered, and which case it was.
 * The answer's wording is the receiver's own and is shown, never read.
 */
export type ProbeCaseName =
  | 'valid delivery'
  | 'tampered body'
  | 'wrong secret'
  | 'stale timestamp (6 min old)'
  | 'future timestamp (6 min ahead)'
  | 'repeated event id'
  | 'ownership challenge';

export type ProbeAnswer = { status: number; body: string; ms: number } | { error: string; ms: number };

const SIGNED_OVER = 'HMAC-SHA256 over `<x-service-timestamp>.<x-service-event-id>.<raw body>` with your secret, compared in constant time';

/** What a receiver that should have answered 2xx most likely got wrong. */
function refusedGood(name: ProbeCaseName, status: number, source: string): string {
  if (status >= 300 && status < 400) return `it answered with a redirect (${status}), which the service never follows: give the URL that answers itself`;
  if (status >= 500) return `your receiver failed (${status}) on a correctly signed delivery: its own log has the error`;
  const retry = 'a repeated event id is a retry: drop it but answer 2xx (spec 6.2), or the sender keeps retrying it';
  let cause: string;
  if (status === 401 || status === 403) cause = `refused as wrongly signed: is --secret the secret your receiver verifies with, and does it check the ${SIGNED_OVER}?`;
  else if (status === 400) cause = `if your receiver judged the timestamp stale or ahead, it reads another clock than the probe (the ${source}): a receiver judges by its own clock, and the probe signs with the wall clock unless given --sim-url`;
  else if (name === 'repeated event id') return retry;
  else return `refused with ${status}: the answer body above, or your receiver's log, says why`;
  return name === 'repeated event id' ? `${cause}; or, if it refused the repeat as a repeat: ${retry}` : cause;
}

/** What a receiver that answered 2xx where it should have refused most likely skipped. */
function acceptedBad(name: ProbeCaseName): string {
  switch (name) {
    case 'tampered body':
      return `it accepted a body its signature does not cover: verify the ${SIGNED_OVER}, on the raw bytes before any JSON parsing`;
    case 'wrong secret':
      return `it accepted a signature made with another secret: check x-service-signature at all, as the ${SIGNED_OVER}`;
    case 'stale timestamp (6 min old)':
      return 'it does not refuse old timestamps: spec 6.2 refuses one more than 5 minutes before your clock (replays)';
    case 'future timestamp (6 min ahead)':
      return 'it does not refuse timestamps ahead of its clock: spec 6.2 refuses one more than 5 minutes after your clock';
    default:
      return 'it accepted what it should have refused';
  }
}

export function hintFor(name: ProbeCaseName, answer: ProbeAnswer, expectsRefusal: boolean, source: string): string {
  if (!('status' in answer)) {
    return answer.error === 'no answer within 5 s'
      ? 'no answer within 5 s: the service counts that as a failure; answer first, then do slow work'
      : 'nothing answered: is the receiver running, and is this its URL?';
  }
  const ok = answer.status >= 200 && answer.status < 300;
  if (expectsRefusal) return ok ? acceptedBad(name) : `answered ${answer.status}`;
  if (name === 'ownership challenge' && ok) return 'answer the verification with JSON {"challenge": "<the challenge it sent>"} and content-type application/json';
  return refusedGood(name, answer.status, source);
}
