import type { Environment } from '../keys/records.ts';
import { classifyAddress } from './webhook-address.ts';

/**
 * Endpoint rules of spec 6.2 that can be checked without connecting: HTTPS, no
 * user name, password or fragment, at most 500 characters. In the test
 * environment http:// is also allowed for a receiver on this machine: the name
 * localhost or a loopback address in any spelling. The public-address rule is
 * checked at connection time (runtime/webhook-sender, domain/webhook-address).
 */
export const MAX_WEBHOOK_URL = 500;

function isLocalReceiver(url: URL): boolean {
  return url.hostname === 'localhost' || classifyAddress(url.hostname) === 'loopback';
}

export function webhookUrlProblem(raw: string, env: Environment): string | null {
  if (raw.length > MAX_WEBHOOK_URL) return `must be at most ${MAX_WEBHOOK_URL} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  if (raw.includes('#')) return 'must not contain a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && env === 'test' && isLocalReceiver(url)) return null;
  return env === 'test' ? 'must use https (http is allowed only for loopback addresses in the test environment)' : 'must use https';
}
