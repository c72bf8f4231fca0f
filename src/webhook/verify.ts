import { isSignatureValid, webhookSignature } from './signature.ts';

/**
 * Verifying a signed delivery the way spec 6.2's receiver rules ask: HMAC over
 * `<timestamp>.<event id>.<raw body>` compared in constant time, timestamps
 * within 5 minutes of the receiver's clock, repeated event ids dropped.
 * Exported for users' own receivers.
 */
export const TOLERANCE_SECONDS = 300;

export type Verdict =
  | { ok: true; eventId: string; timestamp: number; payload: Record<string, unknown>; isChallenge: boolean; duplicate: boolean }
  | { ok: false; reason: 'missing-headers' | 'bad-signature' | 'stale-timestamp' | 'future-timestamp' | 'bad-json'; detail: string };

export interface VerifyOptions {
  secret: string;
  /** The receiver's clock, in Unix seconds. */
  nowSeconds: number;
  toleranceSeconds?: number;
  /** Event ids already processed; a verified id is added. */
  seen?: Set<string>;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export function verifyDelivery(headers: Record<string, string | string[] | undefined>, rawBody: string, options: VerifyOptions): Verdict {
  const signature = header(headers, 'x-service-signature');
  const eventId = header(headers, 'x-service-event-id');
  const timestamp = header(headers, 'x-service-timestamp');
  if (!signature || !eventId || !timestamp || !/^[0-9]{1,12}$/.test(timestamp)) {
    return { ok: false, reason: 'missing-headers', detail: 'x-service-signature, x-service-event-id and x-service-timestamp are required' };
  }
  if (!isSignatureValid(options.secret, timestamp, eventId, rawBody, signature)) return { ok: false, reason: 'bad-signature', detail: 'the signature does not match the body and secret' };
  const skew = Number(timestamp) - options.nowSeconds;
  const tolerance = options.toleranceSeconds ?? TOLERANCE_SECONDS;
  if (skew < -tolerance) return { ok: false, reason: 'stale-timestamp', detail: `the timestamp is ${-skew} s old` };
  if (skew > tolerance) return { ok: false, reason: 'future-timestamp', detail: `the timestamp is ${skew} s ahead` };
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: 'bad-json', detail: 'the body is not JSON' };
  }
  const duplicate = options.seen?.has(eventId) ?? false;
  options.seen?.add(eventId);
  return { ok: true, eventId, timestamp: Number(timestamp), payload, isChallenge: payload.type === 'service.destination.verification', duplicate };
}

/** Headers for a delivery signed with `secret` (the probe uses it to play the sender). */
export function signDelivery(secret: string, eventId: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-signature': webhookSignature(secret, String(timestamp), eventId, body),
    'x-service-event-id': eventId,
    'x-service-timestamp': String(timestamp),
    'user-agent': 'service-destination/0.1',
  };
}
