import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * The one place the simulator makes outbound HTTP calls: signed webhook POSTs.
 * Every address is judged before a socket connects to it: a literal host before
 * the request is made, a name inside the socket's own DNS lookup, so the
 * addresses checked are the addresses connected to (a name that re-resolves to
 * a private address cannot slip past). Redirects are never followed.
 */

/** Why an address may not be connected to, or null when it may (sim/domain/deliveries/webhook-address.ts). */
export type AddressPolicy = (address: string) => string | null;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** The environment's address rule: this layer resolves and connects, the domain classifies. */
  addressPolicy: AddressPolicy;
}

export type WebhookResult =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'refused'; error: string }
  | { kind: 'failed'; error: string };

export type WebhookSender = (request: WebhookRequest) => Promise<WebhookResult>;

const MAX_ANSWER_BYTES = 64 * 1024;

class AddressRefused extends Error {}

/**
 * A DNS lookup that resolves every address of the name and refuses them all
 * if any one is refused: Node 20 connects with autoSelectFamily, which asks
 * for all addresses and may try any of them.
 */
function policedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options: LookupOptions, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const refusal = policy(address);
        if (refusal) return callback(new AddressRefused(refusal), '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The IP literal a URL names (brackets removed), or null for a name. */
function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

export const sendWebhook: WebhookSender = (req) =>
  new Promise((resolve) => {
    const url = new URL(req.url);
    // Node skips the lookup for a literal host, so it is judged here, before any socket exists.
    const literal = literalHost(url);
    const early = literal === null ? null : req.addressPolicy(literal);
    if (early) return resolve({ kind: 'refused', error: early });
    let settled = false;
    const finish = (result: WebhookResult) => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = make(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        timeout: req.timeoutMs,
        lookup: policedLookup(req.addressPolicy),
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
    request.end(req.body);
  });
