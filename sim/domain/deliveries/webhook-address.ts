import ipaddr from 'ipaddr.js';
import type { AddressPolicy } from '../../runtime/webhook-sender.ts';
import type { Environment } from '../keys/records.ts';

/**
 * Spec 6.2: a webhook endpoint must resolve to a public address; private,
 * loopback, link-local and metadata addresses are refused at connection.
 * The ranges come from ipaddr.js (the classification Express's proxy-addr
 * uses), not from patterns over the text, so every spelling of an address
 * (decimal, hex, IPv4-mapped, compressed IPv6) lands in the same class.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

const METADATA = [ipaddr.parse('169.254.169.254'), ipaddr.parse('fd00:ec2::254')];

// Global unicast (RFC 4291 2.4): IPv6 outside it has no public route, even where ipaddr.js names no range.
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
// Prefixes whose last 32 bits are an IPv4 address that the traffic ends up at: the IPv4 address is what gets judged.
const EMBEDS_IPV4_AT_END = [ipaddr.parseCIDR('::ffff:0:0/96'), ipaddr.parseCIDR('::ffff:0:0:0/96'), ipaddr.parseCIDR('64:ff9b::/96')];
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

const IPV4_CLASS: Record<string, AddressClass> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  linkLocal: 'link-local',
};

const IPV6_CLASS: Record<string, AddressClass> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'private',
  // fec0::/10, the deprecated site-local range: private in all but name.
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
};

function ipv4At(bytes: number[], start: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(start, start + 4));
}

function classOf(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (METADATA.some((m) => m.kind() === address.kind() && m.toString() === address.toString())) return 'metadata';
  if (address.kind() === 'ipv4') return IPV4_CLASS[address.range()] ?? 'reserved';
  const v6 = address as ipaddr.IPv6;
  if (EMBEDS_IPV4_AT_END.some((cidr) => v6.match(cidr))) return classOf(ipv4At(v6.toByteArray(), 12));
  if (v6.match(SIX_TO_FOUR)) return classOf(ipv4At(v6.toByteArray(), 2));
  const range = v6.range();
  if (range === 'unicast' && !v6.match(GLOBAL_UNICAST)) return 'reserved';
  return IPV6_CLASS[range] ?? 'reserved';
}

/**
 * The class of an IP address in the text a resolver or the URL parser gives
 * (dotted IPv4, IPv6 without brackets). Text that is not an address is
 * 'reserved', so a surprise fails closed.
 */
export function classifyAddress(text: string): AddressClass {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(bare)) return 'reserved';
  return classOf(ipaddr.parse(bare));
}

const REFUSAL: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'loopback-address-refused',
  private: 'private-address-refused',
  'link-local': 'link-local-address-refused',
  metadata: 'metadata-address-refused',
  reserved: 'reserved-address-refused',
};

/** Why an address may not receive deliveries, or null when it may. */
export function addressRefusal(address: string, env: Environment): string | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  // The test environment delivers to receivers on this machine; nothing else is relaxed.
  if (kind === 'loopback' && env === 'test') return null;
  return REFUSAL[kind];
}

/** The environment's rule, handed to the sender with each request (sim/runtime cannot classify on its own). */
export function addressPolicy(env: Environment): AddressPolicy {
  return (address) => addressRefusal(address, env);
}
