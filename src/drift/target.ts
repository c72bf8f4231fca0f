import ipaddr from 'ipaddr.js';

/** Where the drift check sends its probes, and with what key (spec 5.1: a fixed prefix and 43 base64url characters). */
export interface DriftTarget {
  /** The service's base address, without a trailing slash. */
  url: string;
  key: string;
  /** svc_test_: the local-rehearsal environment, where a probe that changes state is skipped. */
  testEnvironment: boolean;
}

/** A target the check refuses to use; the message names the flag and never echoes the key. */
export class TargetError extends Error {
  constructor(
    readonly flag: '--url' | '--key',
    message: string,
  ) {
    super(message);
  }
}

const KEY_FORMAT = /^svc_(live|test)_[A-Za-z0-9_-]{43}$/;

/** A loopback host (a name that is always local, 127.0.0.0/8, ::1, or an IPv4-mapped loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host);
  return address.range() === 'loopback';
}

/**
 * The key travels in a header of every probe, so the address must be HTTPS:
 * plain HTTP is accepted only for a loopback host (a local simulator or a
 * tunnel's local end), where nothing crosses a network.
 */
export function targetOf(url: string, key: string): DriftTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetError('--url', `--url '${url}' is not an absolute address; give one such as https://service.example or http://127.0.0.1:4010.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TargetError('--url', `--url must be an https:// address (got '${parsed.protocol}').`);
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new TargetError('--url', `--url must use https:// for ${parsed.hostname}: the key would cross the network in clear text (plain http is accepted for loopback hosts only).`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) throw new TargetError('--url', '--url must be a plain base address, without user name, password, query or fragment.');
  if (!KEY_FORMAT.test(key)) throw new TargetError('--key', '--key is not an API key: spec 5.1 gives svc_live_ (or svc_test_) followed by 43 base64url characters.');
  return { url: `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`, key, testEnvironment: key.startsWith('svc_test_') };
}
