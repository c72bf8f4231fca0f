import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup } from 'node:dns';
import { isIP } from 'node:net';

/**
 * The one place the simulator makes outbound HTTP calls: signed webhook POSTs.
 * The address check runs inside the socket's DNS lookup, so the address that
 * is checked is the address connected to (a name that re-resolves to a
 * private address cannot slip past). Redirects are never followed.
 */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Test environment: loopback addresses are allowed (a local receiver). */
  allowLoopback: boolean;
}

export type WebhookResult =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'refused'; error: string }
  | { kind: 'failed'; error: string };

export type WebhookSender = (request: WebhookRequest) => Promise<WebhookResult>;

const MAX_ANSWER_BYTES = 64 * 1024;

/** Why an address may not receive deliveries, or null when it may. */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  const v4 = isIP(address) === 4 ? address : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) {
    const [a, b] = v4.split('.').map(Number);
    if (a === 127) return allowLoopback ? null : 'loopback-address-refused';
    if (a === 169 && b === 254) return v4 === '169.254.169.254' ? 'metadata-address-refused' : 'link-local-address-refused';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private-address-refused';
    if (a === 0 || a >= 224) return 'reserved-address-refused';
    return null;
  }
  const v6 = address.toLowerCase();
  if (v6 === '::1') return allowLoopback ? null : 'loopback-address-refused';
  if (v6 === '::' ) return 'reserved-address-refused';
  if (v6.startsWith('fe8') || v6.startsWith('fe9') || v6.startsWith('fea') || v6.startsWith('feb')) return 'link-local-address-refused';
  if (v6.startsWith('fc') || v6.startsWith('fd')) return v6.startsWith('fd00:ec2::254') ? 'metadata-address-refused' : 'private-address-refused';
  return null;
}

class AddressRefused extends Error {}

export const sendWebhook: WebhookSender = (req) =>
  new Promise((resolve) => {
    let settled = false;
    const finish = (result: WebhookResult) => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const url = new URL(req.url);
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = make(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        timeout: req.timeoutMs,
        lookup: (hostname, options, callback) => {
          lookup(hostname, { ...options, all: false }, (error, address, family) => {
            if (error) return callback(error, address, family);
            const refusal = addressRefusal(address as string, req.allowLoopback);
            if (refusal) return callback(new AddressRefused(refusal), address, family);
            callback(null, address, family);
          });
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        response.on('end', () => finish({ kind: 'answered', status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (error) => finish({ kind: 'failed', error: `answer-error: ${error.message}` }));
      },
    );
    const timer = setTimeout(() => { // the 5-second answer time is real time: it bounds real I/O
      request.destroy();
      finish({ kind: 'failed', error: 'timeout' });
    }, req.timeoutMs);
    timer.unref();
    request.on('timeout', () => {
      request.destroy();
      finish({ kind: 'failed', error: 'timeout' });
    });
    request.on('error', (error) => {
      if (error instanceof AddressRefused) finish({ kind: 'refused', error: error.message });
      else finish({ kind: 'failed', error: `connection-failed: ${(error as NodeJS.ErrnoException).code ?? error.message}` });
    });
    request.on('close', () => clearTimeout(timer));
    // Literal IP hosts skip the lookup hook, so they are checked here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const refusal = addressRefusal(host, req.allowLoopback);
      if (refusal) {
        request.destroy();
        finish({ kind: 'refused', error: refusal });
        return;
      }
    }
    request.end(req.body);
  });
