import { ASSETS } from '../catalog/index.ts';
import type { Profile } from '../catalog/catalog-types.ts';
import { iso, type Deps, type StoreTx } from '../context.ts';
import { add, big, gte, sub, type Atomic } from '../money.ts';
import type { Balance, LedgerEntry } from './records.ts';
import { errors } from '../errors.ts';

/**
 * The reservation ledger, as two-phase transfers: accept reserves the quote
 * maximum; settlement posts the charge and voids the remainder; reads without a
 * confirmed receipt stay pending until reconciled.
 * Invariant, per account and asset: deposited = available + reserved + pending + charged, nothing negative.
 */

export class LedgerInvariantError extends Error {
  constructor(balance: Balance, why: string) {
    super(`Ledger invariant violated for ${balance.id}: ${why} (${JSON.stringify(balance)})`);
    this.name = 'LedgerInvariantError';
  }
}

const FIELDS = ['depositedAtomic', 'availableAtomic', 'reservedAtomic', 'pendingAtomic', 'chargedAtomic'] as const;

export function assertBalanceInvariant(balance: Balance): void {
  for (const field of FIELDS) {
    const value = balance[field];
    if (typeof value !== 'string' || !/^(0|[1-9][0-9]*)$/.test(value)) throw new LedgerInvariantError(balance, `${field} is not a non-negative integer string`);
  }
  const parts = big(balance.availableAtomic) + big(balance.reservedAtomic) + big(balance.pendingAtomic) + big(balance.chargedAtomic);
  if (parts !== big(balance.depositedAtomic)) throw new LedgerInvariantError(balance, 'deposited differs from available + reserved + pending + charged');
}

export const balanceId = (accountId: string, profile: Profile) => `${accountId}:${profile}`;

export function emptyBalance(accountId: string, profile: Profile): Balance {
  return {
    id: balanceId(accountId, profile),
    accountId,
    profile,
    assetId: ASSETS[profile].assetId,
    depositedAtomic: '0',
    availableAtomic: '0',
    reservedAtomic: '0',
    pendingAtomic: '0',
    chargedAtomic: '0',
  };
}

export function readBalance(tx: StoreTx, accountId: string, profile: Profile): Balance {
  return tx.get('balances', balanceId(accountId, profile)) ?? emptyBalance(accountId, profile);
}

type Movement = Partial<Record<(typeof FIELDS)[number], bigint>>;

/** Applies signed deltas to one balance and records the entry; the invariant is checked at commit. */
function move(deps: Deps, tx: StoreTx, accountId: string, profile: Profile, delta: Movement, entry: Pick<LedgerEntry, 'kind' | 'amountAtomic' | 'runId'>): Balance {
  const current = readBalance(tx, accountId, profile);
  const next = { ...current };
  for (const field of FIELDS) {
    const d = delta[field];
    if (d === undefined || d === 0n) continue;
    const value = big(current[field]) + d;
    if (value < 0n) throw new LedgerInvariantError(current, `${field} would become negative`);
    next[field] = value.toString();
  }
  tx.put('balances', next);
  const seq = (tx.getMeta<number>('ledgerSeq') ?? 0) + 1;
  tx.setMeta('ledgerSeq', seq);
  tx.put('ledgerEntries', {
    id: `${accountId}:${profile}:${String(seq).padStart(10, '0')}`,
    accountId,
    profile,
    at: iso(deps.clock.now()),
    ...entry,
    after: { availableAtomic: next.availableAtomic, reservedAtomic: next.reservedAtomic, pendingAtomic: next.pendingAtomic, chargedAtomic: next.chargedAtomic },
  });
  return next;
}

export function deposit(deps: Deps, tx: StoreTx, accountId: string, profile: Profile, amount: Atomic): Balance {
  const a = big(amount);
  return move(deps, tx, accountId, profile, { depositedAtomic: a, availableAtomic: a }, { kind: 'deposit', amountAtomic: amount, runId: null });
}

/** Phase one: hold `amount` from available. Refused with the ledger code when available is short. */
export function reserve(deps: Deps, tx: StoreTx, accountId: string, profile: Profile, amount: Atomic, runId: string): Balance {
  if (!gte(readBalance(tx, accountId, profile).availableAtomic, amount)) throw errors.insufficientCredit();
  const a = big(amount);
  return move(deps, tx, accountId, profile, { availableAtomic: -a, reservedAtomic: a }, { kind: 'reserve', amountAtomic: amount, runId });
}

/**
 * Phase two: of a reservation of `reserved`, post `charge`, keep `held` pending,
 * and return the rest to available.
 */
export function settleReservation(deps: Deps, tx: StoreTx, accountId: string, profile: Profile, reserved: Atomic, charge: Atomic, held: Atomic, runId: string): Balance {
  const back = sub(reserved, add(charge, held));
  let balance = move(deps, tx, accountId, profile, { reservedAtomic: -big(reserved), chargedAtomic: big(charge), pendingAtomic: big(held), availableAtomic: big(back) }, { kind: 'charge', amountAtomic: charge, runId });
  if (held !== '0') balance = recordOnly(deps, tx, balance, 'hold', held, runId);
  if (back !== '0') balance = recordOnly(deps, tx, balance, 'release', back, runId);
  return balance;
}

/** Resolves a pending hold: `charge` of it is posted, the rest returns to available. */
export function reconcileHold(deps: Deps, tx: StoreTx, accountId: string, profile: Profile, held: Atomic, charge: Atomic, runId: string): Balance {
  const back = sub(held, charge);
  return move(deps, tx, accountId, profile, { pendingAtomic: -big(held), chargedAtomic: big(charge), availableAtomic: big(back) }, { kind: 'reconcile', amountAtomic: charge, runId });
}

/** A history line for a part of a movement already applied (no balance change). */
function recordOnly(deps: Deps, tx: StoreTx, balance: Balance, kind: LedgerEntry['kind'], amount: Atomic, runId: string): Balance {
  return move(deps, tx, balance.accountId, balance.profile, {}, { kind, amountAtomic: amount, runId });
}

export function balancesOf(tx: Pick<StoreTx, 'all'>, accountId: string): Balance[] {
  return tx.all('balances').filter((b) => b.accountId === accountId);
}

export function historyOf(tx: Pick<StoreTx, 'group'>, accountId: string, limit = 200): LedgerEntry[] {
  return tx.group('ledgerEntries', accountId).slice(-limit);
}
