/**
 * Chaos profiles: per route group, how likely each network fault is. A profile
 * is data (built in, or a JSON file / PUT /sim/chaos body of the same shape), so
 * a team can keep the storm its integration must survive next to its tests.
 */

/** What a fault does to one /v1 request (docs/rehearsal.md, Profiles). */
export const FAULT_KINDS = ['rate-limited', 'unavailable', 'internal-error', 'reset', 'lost-after-commit', 'slow-body'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** Latency is drawn on its own: it may delay a request that also meets a fault. */
export type ChaosKind = FaultKind | 'latency';

/**
 * Route groups, named for the spec's retry table (part 7): what a client may
 * do after a failure differs between them, so a profile can aim at each.
 */
export const ROUTE_GROUPS = ['read', 'quote-create', 'accept', 'action', 'monitor-create'] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

export interface LatencyRates {
  probability: number;
  /** Uniform between these, in milliseconds of real time. */
  minMs: number;
  maxMs: number;
}

export interface GroupRates {
  /** 429 with Retry-After (seconds drawn from retryAfterSeconds). */
  'rate-limited'?: number;
  /** 503: "later, not in a tight loop". */
  unavailable?: number;
  /** 500 internal_error, before the handler runs. */
  'internal-error'?: number;
  /** The connection is destroyed before the request is handled: nothing happens. */
  reset?: number;
  /** The request is handled and its change is on disk; then the connection is destroyed. */
  'lost-after-commit'?: number;
  /** The answer trickles out over slowBodyMs. */
  'slow-body'?: number;
  latency?: LatencyRates;
}

export interface ChaosProfile {
  name: string;
  /** Seeds the fault stream (the simulator's seed when absent). */
  seed?: string;
  /** [min, max] whole seconds of a chaos 429's Retry-After. */
  retryAfterSeconds: [number, number];
  /** How long a slow body takes to arrive, in milliseconds. */
  slowBodyMs: number;
  groups: Partial<Record<RouteGroup, GroupRates>>;
  /**
   * Faults that happen for certain, before any drawn one: the `nth` request of a group
   * (counted from 1 since the profile was set) meets `fault`. A test or a team causes the
   * situation it wants to rehearse ("the first accept loses its answer") instead of
   * searching seeds for it.
   */
  plan?: PlannedFault[];
}

export interface PlannedFault {
  group: RouteGroup;
  nth: number;
  fault: FaultKind;
}

const none: Partial<Record<RouteGroup, GroupRates>> = {};

const flakyRead: GroupRates = { 'rate-limited': 0.03, unavailable: 0.01, 'internal-error': 0.03, reset: 0.02, 'lost-after-commit': 0.01, 'slow-body': 0.02, latency: { probability: 0.2, minMs: 20, maxMs: 200 } };
const stormRead: GroupRates = { 'rate-limited': 0.1, unavailable: 0.04, 'internal-error': 0.08, reset: 0.05, 'lost-after-commit': 0.05, 'slow-body': 0.05, latency: { probability: 0.4, minMs: 50, maxMs: 400 } };

/** The built-in profiles; `calm` injects nothing (conduct is still recorded: the bench's measure of the layer). */
export const BUILT_IN_PROFILES: Record<'calm' | 'flaky' | 'storm', ChaosProfile> = {
  calm: { name: 'calm', retryAfterSeconds: [1, 1], slowBodyMs: 0, groups: none },
  flaky: {
    name: 'flaky',
    retryAfterSeconds: [1, 2],
    slowBodyMs: 600,
    groups: {
      read: flakyRead,
      'quote-create': { 'rate-limited': 0.03, 'internal-error': 0.03, reset: 0.02, 'lost-after-commit': 0.03 },
      accept: { 'rate-limited': 0.02, 'internal-error': 0.02, reset: 0.02, 'lost-after-commit': 0.05 },
      action: { 'internal-error': 0.03, reset: 0.02, 'lost-after-commit': 0.03 },
      'monitor-create': { 'internal-error': 0.02, 'lost-after-commit': 0.02 },
    },
  },
  storm: {
    name: 'storm',
    retryAfterSeconds: [1, 2],
    slowBodyMs: 1200,
    groups: {
      read: stormRead,
      'quote-create': { 'rate-limited': 0.1, unavailable: 0.03, 'internal-error': 0.08, reset: 0.05, 'lost-after-commit': 0.1, latency: { probability: 0.3, minMs: 50, maxMs: 300 } },
      accept: { 'rate-limited': 0.08, unavailable: 0.03, 'internal-error': 0.05, reset: 0.08, 'lost-after-commit': 0.25, latency: { probability: 0.3, minMs: 50, maxMs: 300 } },
      action: { 'rate-limited': 0.08, 'internal-error': 0.08, reset: 0.05, 'lost-after-commit': 0.15 },
      'monitor-create': { 'rate-limited': 0.05, 'internal-error': 0.05, 'lost-after-commit': 0.1 },
    },
  },
};

export const isBuiltIn = (name: string): name is keyof typeof BUILT_IN_PROFILES => Object.hasOwn(BUILT_IN_PROFILES, name);

/** The group a /v1 route belongs to (method and the route's declared pattern). */
export function groupOf(method: string, route: string): RouteGroup {
  if (method !== 'POST') return 'read';
  if (route.endsWith('/accept')) return 'accept';
  if (route.endsWith('/quotes')) return 'quote-create';
  if (route === '/v1/monitors') return 'monitor-create';
  return 'action';
}

/** Why a profile document is refused: the field, named as the spec's validation messages name it. */
export class ProfileError extends Error {}

const probability = (value: unknown, field: string): number => {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new ProfileError(`${field}: a probability from 0 to 1 (got ${JSON.stringify(value)}).`);
  return value;
};

const wholeNumber = (value: unknown, field: string, max: number): number => {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max) throw new ProfileError(`${field}: a whole number from 0 to ${max} (got ${JSON.stringify(value)}).`);
  return value as number;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function onlyKnown(value: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const name of Object.keys(value)) if (!known.includes(name)) throw new ProfileError(`${where}${name}: not a profile field (known: ${known.join(', ')}).`);
}

function groupRates(value: unknown, where: string): GroupRates {
  if (!isObject(value)) throw new ProfileError(`${where}: an object of fault probabilities.`);
  onlyKnown(value, [...FAULT_KINDS, 'latency'], `${where}.`);
  const rates: GroupRates = {};
  let total = 0;
  for (const kind of FAULT_KINDS) {
    if (value[kind] === undefined) continue;
    rates[kind] = probability(value[kind], `${where}.${kind}`);
    total += rates[kind]!;
  }
  // One draw picks at most one fault, so their probabilities share the unit interval.
  if (total > 1) throw new ProfileError(`${where}: the fault probabilities add up to ${total}, more than 1.`);
  if (value.latency !== undefined) {
    const l = value.latency;
    if (!isObject(l)) throw new ProfileError(`${where}.latency: { probability, minMs, maxMs }.`);
    onlyKnown(l, ['probability', 'minMs', 'maxMs'], `${where}.latency.`);
    const minMs = wholeNumber(l.minMs, `${where}.latency.minMs`, 60_000);
    const maxMs = wholeNumber(l.maxMs, `${where}.latency.maxMs`, 60_000);
    if (maxMs < minMs) throw new ProfileError(`${where}.latency.maxMs: at least minMs (${minMs}).`);
    rates.latency = { probability: probability(l.probability, `${where}.latency.probability`), minMs, maxMs };
  }
  return rates;
}

/**
 * A profile from a document: a built-in's name, or an object of the
 * ChaosProfile shape (every field but `groups` optional). Refuses anything else
 * naming the field.
 */
export function parseProfile(value: unknown, where = 'profile'): ChaosProfile {
  if (typeof value === 'string') {
    if (!isBuiltIn(value)) throw new ProfileError(`${where}: one of ${Object.keys(BUILT_IN_PROFILES).join(', ')}, or a profile object (got '${value}').`);
    return BUILT_IN_PROFILES[value];
  }
  if (!isObject(value)) throw new ProfileError(`${where}: a profile name or object.`);
  onlyKnown(value, ['name', 'seed', 'retryAfterSeconds', 'slowBodyMs', 'groups', 'plan'], `${where}.`);
  const name = value.name ?? 'custom';
  if (typeof name !== 'string' || name.length < 1 || name.length > 100) throw new ProfileError(`${where}.name: 1 to 100 characters.`);
  let seed: string | undefined;
  if (value.seed !== undefined) {
    if ((typeof value.seed !== 'string' && !Number.isInteger(value.seed)) || String(value.seed).length > 100 || String(value.seed) === '') throw new ProfileError(`${where}.seed: a whole number or text of up to 100 characters.`);
    seed = String(value.seed);
  }
  let retryAfterSeconds: [number, number] = [1, 2];
  if (value.retryAfterSeconds !== undefined) {
    const r = value.retryAfterSeconds;
    if (!Array.isArray(r) || r.length !== 2) throw new ProfileError(`${where}.retryAfterSeconds: [min, max] whole seconds.`);
    retryAfterSeconds = [wholeNumber(r[0], `${where}.retryAfterSeconds[0]`, 60), wholeNumber(r[1], `${where}.retryAfterSeconds[1]`, 60)];
    if (retryAfterSeconds[0] < 1 || retryAfterSeconds[1] < retryAfterSeconds[0]) throw new ProfileError(`${where}.retryAfterSeconds: 1 <= min <= max.`);
  }
  const slowBodyMs = value.slowBodyMs === undefined ? 1000 : wholeNumber(value.slowBodyMs, `${where}.slowBodyMs`, 60_000);
  // A profile that only plans its faults needs no rates.
  const groupsValue = value.groups === undefined && value.plan !== undefined ? {} : value.groups;
  if (!isObject(groupsValue)) throw new ProfileError(`${where}.groups: an object keyed by route group (${ROUTE_GROUPS.join(', ')}).`);
  onlyKnown(groupsValue, ROUTE_GROUPS, `${where}.groups.`);
  const groups: ChaosProfile['groups'] = {};
  for (const group of ROUTE_GROUPS) {
    if (groupsValue[group] !== undefined) groups[group] = groupRates(groupsValue[group], `${where}.groups.${group}`);
  }
  const plan = value.plan === undefined ? undefined : plannedFaults(value.plan, `${where}.plan`);
  return { name, ...(seed === undefined ? {} : { seed }), retryAfterSeconds, slowBodyMs, groups, ...(plan === undefined ? {} : { plan }) };
}

/** At most this many planned faults: a plan scripts a situation, not a whole storm. */
const PLAN_LIMIT = 100;

function plannedFaults(value: unknown, where: string): PlannedFault[] {
  if (!Array.isArray(value) || value.length > PLAN_LIMIT) throw new ProfileError(`${where}: a list of up to ${PLAN_LIMIT} { group, nth, fault }.`);
  const seen = new Set<string>();
  return value.map((entry, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(entry)) throw new ProfileError(`${at}: { group, nth, fault }.`);
    onlyKnown(entry, ['group', 'nth', 'fault'], `${at}.`);
    if (!ROUTE_GROUPS.includes(entry.group as RouteGroup)) throw new ProfileError(`${at}.group: one of ${ROUTE_GROUPS.join(', ')} (got ${JSON.stringify(entry.group)}).`);
    if (!Number.isInteger(entry.nth) || (entry.nth as number) < 1 || (entry.nth as number) > 1_000_000) throw new ProfileError(`${at}.nth: a whole number from 1 to 1000000 (got ${JSON.stringify(entry.nth)}).`);
    if (!FAULT_KINDS.includes(entry.fault as FaultKind)) throw new ProfileError(`${at}.fault: one of ${FAULT_KINDS.join(', ')} (got ${JSON.stringify(entry.fault)}).`);
    const planned = { group: entry.group as RouteGroup, nth: entry.nth as number, fault: entry.fault as FaultKind };
    const name = `${planned.group}#${planned.nth}`;
    if (seen.has(name)) throw new ProfileError(`${at}: ${planned.group} request ${planned.nth} is already planned.`);
    seen.add(name);
    return planned;
  });
}
