import { ASSETS } from './catalog/index.ts';
import type { Balance, LedgerEntry } from './ledger/records.ts';

/**
 * What an imported store must mean, beyond its shape (snapshot-check.ts): the
 * values the simulator switches on are among those it knows, every reference
 * the domain follows leads to a row, and the ledger's entries and balances tell
 * the same story. A store that breaks one of these would load, then fail (or
 * worse, answer wrongly) at the first request that reads it.
 */

/** What the simulator knows, handed in by it (the domain does not hold its job registry or the clock). */
export interface KnownValues {
  jobKinds: ReadonlySet<string>;
  clockModes: readonly string[];
}

export interface Inconsistency {
  path: string[];
  message: string;
}

type Rows = Record<string, Record<string, unknown>>;

/** Rows looked at between two yields: the caller lets other requests run at each. */
export const ROWS_PER_STEP = 5_000;

const ACCOUNT_TYPES = ['solana', 'evm'];
const ENTRY_KINDS: ReadonlyArray<LedgerEntry['kind']> = ['deposit', 'reserve', 'charge', 'release', 'hold', 'reconcile'];
const PARTS = ['availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic'] as const;
const isDecimal = (value: unknown): value is string => typeof value === 'string' && /^(0|[1-9][0-9]{0,77})$/.test(value);
const listed = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** A field that must be one of `values`, or null when it is. */
function notOneOf(row: Record<string, unknown>, field: string, values: readonly string[] | ReadonlySet<string>): string | null {
  const allowed = values instanceof Set ? values.has(row[field] as string) : (values as readonly string[]).includes(row[field] as string);
  return typeof row[field] === 'string' && allowed ? null : `must be one of ${listed([...values])}`;
}

/** The clock's modes, in the document and in the store's meta. */
export function clockInconsistency(doc: Record<string, unknown>, meta: Record<string, unknown>, known: KnownValues): Inconsistency | null {
  const clock = doc.clock as Record<string, unknown>;
  if (clock.mode !== undefined && !known.clockModes.includes(clock.mode as string)) return { path: ['clock', 'mode'], message: `must be one of ${listed(known.clockModes)}` };
  const saved = meta.clock as Record<string, unknown> | undefined;
  if (saved === undefined) return null;
  if (typeof saved !== 'object' || saved === null || !known.clockModes.includes(saved.mode as string)) return { path: ['store', 'meta', 'clock', 'mode'], message: `must be one of ${listed(known.clockModes)}` };
  if (typeof saved.valueMs !== 'number' || !Number.isFinite(saved.valueMs)) return { path: ['store', 'meta', 'clock', 'valueMs'], message: 'must be a finite number' };
  return null;
}

/** Per row: enums, and references to rows of other collections. Field checks of snapshot-check.ts have run. */
const ROW_MEANING: Record<string, (row: Record<string, unknown>, rows: Rows, known: KnownValues) => Inconsistency | null> = {
  accounts: (row) => at('type', notOneOf(row, 'type', ACCOUNT_TYPES)),
  balances: (row, rows) =>
    at('profile', notOneOf(row, 'profile', Object.keys(ASSETS))) ?? at('accountId', missing(rows, 'accounts', row.accountId)) ?? at('id', row.id === `${row.accountId}:${row.profile}` ? null : 'must be ACCOUNT:PROFILE'),
  keys: (row, rows) => at('profile', notOneOf(row, 'profile', Object.keys(ASSETS))) ?? at('accountId', missing(rows, 'accounts', row.accountId)),
  keySecrets: (row, rows) => at('keyId', missing(rows, 'keys', row.keyId)),
  jobs: (row, _rows, known) => at('kind', notOneOf(row, 'kind', known.jobKinds)),
  ledgerEntries: (row, rows) => {
    const problem =
      at('kind', notOneOf(row, 'kind', ENTRY_KINDS)) ??
      at('profile', notOneOf(row, 'profile', Object.keys(ASSETS))) ??
      at('accountId', missing(rows, 'accounts', row.accountId)) ??
      at('amountAtomic', isDecimal(row.amountAtomic) ? null : 'must be an amount in decimal digits');
    if (problem) return problem;
    const after = row.after as Record<string, unknown> | undefined;
    if (typeof after !== 'object' || after === null) return at('after', 'must be the balance after the movement');
    for (const part of PARTS) if (!isDecimal(after[part])) return { path: ['after', part], message: 'must be an amount in decimal digits' };
    if (entrySeq(row) === null) return at('id', 'must be ACCOUNT:PROFILE:SEQUENCE');
    return at('id', rows.balances?.[`${row.accountId}:${row.profile}`] ? null : `moves the balance ${row.accountId}:${row.profile}, which the store does not hold`);
  },
};

const at = (field: string, message: string | null): Inconsistency | null => (message === null ? null : { path: [field], message });
const missing = (rows: Rows, collection: string, id: unknown) => (typeof id === 'string' && rows[collection]?.[id] !== undefined ? null : `names no row of ${collection}`);

/** The entry's sequence number (the id's last part), or null when the id is not its balance's. */
function entrySeq(row: Record<string, unknown>): number | null {
  const prefix = `${row.accountId}:${row.profile}:`;
  const id = row.id as string;
  if (!id.startsWith(prefix) || !/^[0-9]{1,15}$/.test(id.slice(prefix.length))) return null;
  return Number(id.slice(prefix.length));
}

/**
 * The first inconsistency of the store's rows, or null; yields every
 * ROWS_PER_STEP rows. Then the ledger: each balance's deposits are the sum of
 * its deposit entries, its parts are those its last entry left, and a balance
 * without entries is all zero; the ledger's counter is past every entry.
 */
export function* storeInconsistency(collections: Rows, meta: Record<string, unknown>, known: KnownValues): Generator<void, Inconsistency | null, void> {
  let looked = 0;
  for (const [name, check] of Object.entries(ROW_MEANING)) {
    const rows = (collections[name] ?? {}) as Record<string, Record<string, unknown>>;
    // Keys, not entries or values: one array of the ids, rather than a pair (or the rows) for each row of a large collection.
    for (const id of Object.keys(rows)) {
      const row = rows[id];
      const problem = check(row, collections, known);
      if (problem) return { path: ['store', 'collections', name, id, ...problem.path], message: problem.message };
      if (++looked % ROWS_PER_STEP === 0) yield;
    }
  }
  const ledger = new Map<string, { deposited: bigint; last: Record<string, unknown> | null; lastSeq: number }>();
  let highest = 0;
  const entries = (collections.ledgerEntries ?? {}) as Record<string, Record<string, unknown>>;
  for (const entryId of Object.keys(entries)) {
    const row = entries[entryId];
    const balanceId = `${row.accountId}:${row.profile}`;
    const seen = ledger.get(balanceId) ?? { deposited: 0n, last: null, lastSeq: -1 };
    const seq = entrySeq(row)!;
    if (row.kind === 'deposit') seen.deposited += BigInt(row.amountAtomic as string);
    if (seq > seen.lastSeq) [seen.last, seen.lastSeq] = [row, seq];
    highest = Math.max(highest, seq);
    ledger.set(balanceId, seen);
    if (++looked % ROWS_PER_STEP === 0) yield;
  }
  for (const [id, raw] of Object.entries((collections.balances ?? {}) as Record<string, Record<string, unknown>>)) {
    const balance = raw as unknown as Balance;
    const path = ['store', 'collections', 'balances', id];
    const seen = ledger.get(id);
    if (!seen) {
      if (balance.depositedAtomic !== '0') return { path: [...path, 'depositedAtomic'], message: `is ${balance.depositedAtomic}, but the store holds no ledger entries of this balance` };
      continue;
    }
    if (BigInt(balance.depositedAtomic) !== seen.deposited) return { path: [...path, 'depositedAtomic'], message: `is ${balance.depositedAtomic}, but the deposits in the ledger add up to ${seen.deposited}` };
    const after = seen.last!.after as Record<string, string>;
    const differing = PARTS.find((part) => after[part] !== balance[part]);
    if (differing) return { path: [...path, differing], message: `is ${balance[differing]}, but the last ledger entry (${seen.last!.id}) left ${after[differing]}` };
  }
  const counter = meta.ledgerSeq ?? 0;
  if (typeof counter === 'number' && counter < highest) return { path: ['store', 'meta', 'ledgerSeq'], message: `is ${counter}, below the ledger's highest entry sequence ${highest}: new entries would overwrite old ones` };
  return null;
}
