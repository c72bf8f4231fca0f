import { createServer, type Server } from 'node:http';
import type { ClockReading } from './clock.ts';
import { verifyDelivery } from './verify.ts';

/**
 * A local receiver for signed deliveries: answers challenges, verifies every
 * delivery, drops repeated event ids (answering 200 so the sender stops
 * retrying), and reports each one. Used by `understudy webhook listen` and by
 * the console's webhook inbox.
 */
export interface ReceivedDelivery {
  receivedAt: string;
  eventId: string | null;
  /** verified, duplicate-dropped, or the refusal reason. */
  verdict: string;
  /** Why it was refused, in words (absent when accepted). */
  detail?: string;
  /** The clock the timestamp was judged by, when the receiver was told (see clock.ts). */
  clock?: string;
  status: number;
  type: string | null;
  duplicate: boolean;
  payload: Record<string, unknown> | null;
}

export interface ReceiverOptions {
  secret: string;
  /** The receiver's clock in Unix seconds, or a reading that also names its source: the simulator's when rehearsing on a frozen clock. */
  nowSeconds: () => Promise<number | ClockReading> | number | ClockReading;
  onDelivery?: (delivery: ReceivedDelivery) => void;
}

const MAX_BODY = 1024 * 1024;

export function createReceiver(options: ReceiverOptions): Server {
  const seen = new Set<string>();
  return createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const now = await options.nowSeconds();
      const clock = typeof now === 'number' ? null : now;
      const verdict = verifyDelivery(req.headers, raw, { secret: options.secret, nowSeconds: clock ? clock.seconds : (now as number), seen });
      let detail: string | null = null;
      if (!verdict.ok) detail = clock && verdict.reason.endsWith('-timestamp') ? `${verdict.detail} by the ${clock.source}` : verdict.detail;
      let status: number;
      let answer: unknown;
      if (!verdict.ok) {
        status = verdict.reason === 'bad-signature' || verdict.reason === 'missing-headers' ? 401 : 400;
        // The sender records this body's reason beside the status (the destination's lastError), so a refusal explains itself there too.
        answer = { error: { code: verdict.reason, message: detail } };
      } else if (verdict.isChallenge) {
        status = 200;
        answer = { challenge: verdict.payload.challenge };
      } else {
        status = 200;
        answer = { received: true, duplicate: verdict.duplicate };
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      options.onDelivery?.({
        receivedAt: new Date().toISOString(),
        eventId: verdict.ok ? verdict.eventId : (req.headers['x-service-event-id'] as string | undefined) ?? null,
        verdict: verdict.ok ? (verdict.duplicate ? 'duplicate-dropped' : 'verified') : verdict.reason,
        ...(detail ? { detail } : {}),
        ...(clock ? { clock: clock.source } : {}),
        status,
        type: verdict.ok ? String(verdict.payload.type ?? '') : null,
        duplicate: verdict.ok && verdict.duplicate,
        payload: verdict.ok ? verdict.payload : null,
      });
    });
  });
}
