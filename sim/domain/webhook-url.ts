import type { Environment } from './records.ts';

/**
 * Endpoint rules of spec 6.2 that can be checked without connecting: HTTPS, no
 * user name, password or fragment, at most 500 characters. In the test
 * environment a loopback http:// URL is also allowed, for a local receiver.
 * The public-address rule is checked at connection time (runtime/webhook-sender).
 */
export const MAX_WEBHOOK_URL = 500;

const LOOPBACK_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

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
  if (url.protocol === 'http:' && env === 'test' && LOOPBACK_HOSTS.test(url.hostname)) return null;
  return env === 'test' ? 'must use https (http is allowed only for loopback addresses in the test environment)' : 'must use https';
}
