import { ASSETS } from './catalog/index.ts';
import { errors } from './errors.ts';
import { assertBalanceInvariant } from './ledger/index.ts';
import type { Balance } from './ledger/records.ts';
import { clockInconsistency, ROWS_PER_STEP, storeInconsistency, type KnownValues } from './snapshot-meaning.ts';

export type { KnownValues };

/**
 * PUT /sim/snapshot checks the whole document before anything changes, so a
 * refused import leaves the simulator exactly as it was (docs/decisions.md,
 * Store). Checked: the envelope; the bounds (no value nested deeper than
 * MAX_IMPORT_DEPTH, which the store's recursive serializer and every reader can
 * take); the store's shape; every meta value the simulator reads; and the rows'
 * fields that loading reads (balances' invariant, the job heap, the monitor
 * index); then what the store means (snapshot-meaning.ts). Everything else in
 * a row is taken as exported.
 *
 * A document can be as large as the import's body limit (hundreds of MB), so
 * the check is a generator: it yields every few thousand values, and the
 * caller lets other requests run at each yield (Simulator.importSnapshot).
 */

/**
 * Levels of nesting of the whole document (its top level is 1). The simulator's
 * own rows are objects at level 5 (document > store > collections > NAME > row)
 * and nest about 5 more (an export with runs, events and billing: 9 in all); a
 * request body's nesting is bounded by its validation, so an export never
 * comes near this.
 */
export const MAX_IMPORT_DEPTH = 64;

type Problem = { path: string; message: string } | null;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isDecimal = (value: unknown) => typeof value === 'string' && /^(0|[1-9][0-9]{0,77})$/.test(value);

/** A path as messages show it: dotted, each part cut to 100 characters (ids fit), at most 10 parts (the rest as "…"). */
function showPath(parts: readonly string[]): string {
  const shown = parts.slice(0, 10).map((p) => (p.length > 100 ? `${p.slice(0, 100)}…` : p));
  return parts.length > 10 ? `${shown.join('.')}.…` : shown.join('.');
}

/** Values the depth walk looks at between two yields. */
const VALUES_PER_STEP = 50_000;

/**
 * The first value nested deeper than `max` levels, walked without recursion (a deep document must not
 * overflow the checker's own stack). A container on the stack holds its keys and how far it got, rather
 * than a frame for each of its values: pushing the 160,000 rows of a collection at once held the event
 * loop for a third of a second (issue 29). Values are walked last key first, depth first.
 */
function* tooDeep(doc: unknown, max: number): Generator<void, string[] | null, void> {
  let looked = 0;
  type Container = { value: Record<string, unknown>; keys: string[]; next: number; depth: number; key: string | null; parent: Container | null };
  const stack: Container[] = [];
  let value: unknown = doc;
  let at: { depth: number; key: string | null; parent: Container | null } | null = { depth: 1, key: null, parent: null };
  for (;;) {
    if (at !== null) {
      if (++looked % VALUES_PER_STEP === 0) yield;
      if (typeof value === 'object' && value !== null) {
        if (at.depth > max) {
          const parts: string[] = [at.key!];
          for (let c = at.parent; c?.key != null; c = c.parent) parts.push(c.key);
          return parts.reverse();
        }
        const keys = Object.keys(value);
        stack.push({ value: value as Record<string, unknown>, keys, next: keys.length - 1, ...at });
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return null;
    if (top.next < 0) {
      stack.pop();
      at = null;
      continue;
    }
    const key = top.keys[top.next];
    top.next -= 1;
    value = top.value[key];
    at = { depth: top.depth + 1, key, parent: top };
  }
}

const ROW_CHECKS: Record<string, (row: Record<string, unknown>) => Problem> = {
  balances: (row) => {
    try {
      assertBalanceInvariant(row as unknown as Balance);
      return null;
    } catch (error) {
      return { path: '', message: `breaks the ledger invariant: ${(error as Error).message}` };
    }
  },
  jobs: (row) => {
    if (typeof row.dueAtMs !== 'number' || !Number.isFinite(row.dueAtMs)) return { path: 'dueAtMs', message: 'must be a finite number' };
    if (!isCount(row.seq)) return { path: 'seq', message: 'must be a non-negative integer' };
    for (const field of ['kind', 'ref']) if (typeof row[field] !== 'string') return { path: field, message: 'must be a string' };
    return null;
  },
  chainLogs: (row) => {
    if (typeof row.chain !== 'string') return { path: 'chain', message: 'must be a string' };
    if (!isDecimal(row.blockNumber)) return { path: 'blockNumber', message: 'must be a block number in decimal digits' };
    return null;
  },
  monitorEvents: (row) => {
    for (const field of ['kind', 'monitorId', 'ruleId']) if (typeof row[field] !== 'string') return { path: field, message: 'must be a string' };
    if (row.logId !== null && typeof row.logId !== 'string') return { path: 'logId', message: 'must be a string or null' };
    return null;
  },
};

const telemetryProblem = (value: unknown): Problem => {
  if (!isPlainObject(value)) return { path: '', message: 'must be an object' };
  if (!Array.isArray(value.requests)) return { path: 'requests', message: 'must be an array' };
  const badEntry = value.requests.findIndex(
    (e) => !isPlainObject(e) || typeof e.at !== 'string' || typeof e.method !== 'string' || typeof e.route !== 'string' || !isCount(e.status) || (e.keyId !== null && typeof e.keyId !== 'string'),
  );
  if (badEntry >= 0) return { path: `requests.${badEntry}`, message: 'must be a request log entry ({ at, method, route, status, keyId })' };
  if (!isPlainObject(value.keyUsage)) return { path: 'keyUsage', message: 'must be an object' };
  for (const [keyId, usage] of Object.entries(value.keyUsage)) {
    const valid =
      isPlainObject(usage) &&
      (usage.lastUsedAt === null || typeof usage.lastUsedAt === 'string') &&
      Array.isArray(usage.minutes) &&
      usage.minutes.every((m) => Array.isArray(m) && m.length === 2 && isCount(m[0]) && isCount(m[1]));
    if (!valid) return { path: `keyUsage.${keyId}`, message: 'must be { lastUsedAt, minutes: [[minute, count], ...] }' };
  }
  return null;
};

const faultsProblem = (value: unknown): Problem => {
  if (!isPlainObject(value)) return { path: '', message: 'must be an object' };
  if (!Array.isArray(value.paymentsDisabled) || !value.paymentsDisabled.every((p) => typeof p === 'string' && p in ASSETS)) {
    return { path: 'paymentsDisabled', message: `must be an array of profiles (${Object.keys(ASSETS).join(', ')})` };
  }
  for (const field of ['researchProviderUnavailable', 'exportStorageUnavailable']) if (typeof value[field] !== 'boolean') return { path: field, message: 'must be a boolean' };
  return null;
};

const chainProblem = (value: unknown): Problem => {
  if (!isPlainObject(value)) return { path: '', message: 'must be an object' };
  if (value.extraBlocks !== undefined && !isDecimal(value.extraBlocks)) return { path: 'extraBlocks', message: 'must be a count in decimal digits' };
  if (value.generations !== undefined && (!isPlainObject(value.generations) || !Object.values(value.generations).every(isCount))) {
    return { path: 'generations', message: 'must map block numbers to non-negative integers' };
  }
  return null;
};

const COUNTERS = ['jobSeq', 'ledgerSeq', 'notificationSeq', 'chainScriptSeq', 'platformQueueBound'];

/** Meta the simulator reads, by key; other keys are kept as they are. */
function metaProblem(key: string, value: unknown): Problem {
  if (key === 'random') {
    const valid = isPlainObject(value) && isCount(value.counter) && typeof value.state === 'string' && /^[0-9a-f]{64}$/.test(value.state);
    return valid ? null : { path: '', message: "must be the generator's state ({ state: 64 lowercase hex digits, counter })" };
  }
  if (key === 'telemetry') return telemetryProblem(value);
  if (key === 'faults') return faultsProblem(value);
  // A store keeps its sealing key beside it (PATH.secrets), never in what it exports or imports.
  if (key === 'sealingKey') return { path: '', message: 'is not imported: a store keeps its sealing key in PATH.secrets, never in a snapshot' };
  if (key.startsWith('chain:')) return chainProblem(value);
  if (COUNTERS.includes(key) && !isCount(value)) return { path: '', message: 'must be a non-negative integer' };
  return null;
}

const refuse = (parts: readonly string[], message: string) => errors.invalidInput(`body: '${showPath(parts)}' ${message}.`);

/** Refuses (400 invalid_input, naming the field) the first thing wrong with an import document; returns normally when all of it can be loaded. */
export function checkSnapshotDocument(doc: unknown, known: KnownValues): void {
  for (const _ of checkSnapshotSteps(doc, known));
}

/** checkSnapshotDocument in steps: it yields between them (the document is not changed meanwhile), and throws the refusal. */
export function* checkSnapshotSteps(doc: unknown, known: KnownValues): Generator<void, void, void> {
  const deep = yield* tooDeep(doc, MAX_IMPORT_DEPTH);
  if (deep) throw refuse(deep, `is nested more than ${MAX_IMPORT_DEPTH} levels deep (the most an import may have)`);
  if (!isPlainObject(doc) || doc.format !== 'understudy-snapshot' || doc.version !== 1) {
    throw errors.invalidInput('body: not an understudy snapshot (format "understudy-snapshot", version 1, with a store).');
  }
  if (!isPlainObject(doc.clock) || typeof doc.clock.now !== 'string' || !Number.isFinite(Date.parse(doc.clock.now))) throw refuse(['clock', 'now'], 'must be an ISO date-time');
  const store = doc.store;
  if (!isPlainObject(store) || store.format !== 'understudy-store') throw refuse(['store', 'format'], 'must be "understudy-store"');
  if (!isPlainObject(store.meta)) throw refuse(['store', 'meta'], 'must be an object');
  for (const [key, value] of Object.entries(store.meta)) {
    const problem = metaProblem(key, value);
    if (problem) throw refuse(['store', 'meta', key, ...(problem.path ? problem.path.split('.') : [])], problem.message);
  }
  const clock = clockInconsistency(doc, store.meta, known);
  if (clock) throw refuse(clock.path, clock.message);
  if (!isPlainObject(store.collections)) throw refuse(['store', 'collections'], 'must be an object');
  let looked = 0;
  for (const [name, rows] of Object.entries(store.collections)) {
    if (!isPlainObject(rows)) throw refuse(['store', 'collections', name], 'must be an object of rows by id');
    const check = ROW_CHECKS[name];
    // Keys, not entries: a pair for each row of a large collection held the event loop for a third of a second (issue 29).
    for (const id of Object.keys(rows)) {
      const row = rows[id];
      if (!isPlainObject(row) || row.id !== id) throw refuse(['store', 'collections', name, id], 'must be an object whose id is its key');
      const problem = check?.(row);
      if (problem) throw refuse(['store', 'collections', name, id, ...(problem.path ? [problem.path] : [])], problem.message);
      if (++looked % ROWS_PER_STEP === 0) yield;
    }
  }
  const inconsistency = yield* storeInconsistency(store.collections as Record<string, Record<string, unknown>>, store.meta, known);
  if (inconsistency) throw refuse(inconsistency.path, inconsistency.message);
}
