import { ASSETS, assertRail, type Rail } from '../catalog/index.ts';
import { iso, transact, type Deps, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import { schedule } from '../jobs/index.ts';
import { keyStatus } from '../keys/index.ts';
import { reserve } from '../ledger/index.ts';
import { add, big } from '../money.ts';
import { RAIL_NOTICE } from './notices.ts';
import { isExpired } from './quotes.ts';
import { LIMITS } from '../limits/index.ts';
import type { AcceptanceAnswer, AcceptanceRecord, QuoteRecord } from './records.ts';
import type { Account } from '../ledger/records.ts';
import type { ApiKeyRecord } from '../keys/records.ts';
import type { RunRecord } from '../runs/records.ts';
import { addEvent, checkPlatformQueue, currentFaults, planRun, QUEUE_DELAY_MS, runView } from '../runs/index.ts';

/** Acceptance (spec 4.4, 4.5): checks in the documented order, then one atomic transaction. */

export interface AcceptBody {
  acceptedContractHash: string;
  idempotencyKey: string;
}

export interface Acceptance {
  replayed: boolean;
  runId: string;
  /** The answer, the same one for the acceptance and every replay of it. */
  answer: AcceptanceAnswer;
}

const DAY_MS = 86_400_000;

/** Run limits of spec 8 across every key of the account: 3 queued or running, 20 started in 24 hours. */
function checkRunLimits(account: Account, nowMs: number): void {
  if (account.activeRunIds.length >= LIMITS.activeRunsPerAccount) {
    throw errors.runLimit(`This account already has ${LIMITS.activeRunsPerAccount} runs queued or running. Try again when one ends.`, 10);
  }
  const recent = account.recentRunStarts.filter((t) => Date.parse(t) > nowMs - DAY_MS);
  if (recent.length >= LIMITS.runsPerAccountPer24h) {
    const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(recent[0]) + DAY_MS - nowMs) / 1000));
    throw errors.runLimit(`This account started ${LIMITS.runsPerAccountPer24h} runs in the last 24 hours, the most allowed. Try again later.`, retryAfterSeconds);
  }
}

export function acceptQuote(deps: Deps, authenticated: ApiKeyRecord, rail: Rail, quoteId: string, body: AcceptBody): Acceptance {
  return transact(deps, (tx) => {
    const now = deps.clock.now();
    // The key as it stands now, not as authenticated: another acceptance through it may have
    // committed spend while this request's body was still arriving.
    const key = tx.get('keys', authenticated.id) ?? authenticated;
    // 1. The key is still active (revocation is immediate, spec 3.5).
    if (keyStatus(key, now) !== 'active') throw errors.unauthenticated();
    // 1. The quote belongs to the account, is in the key's asset and rail, within its listings.
    assertRail(key, rail);
    const quote = tx.get('quotes', quoteId);
    if (!quote || quote.accountId !== key.accountId) throw errors.notFound('This quote was not found.');
    if (quote.profile !== key.profile) throw errors.otherEnvironment();
    if (key.listingIds && !key.listingIds.includes(quote.listingId)) throw errors.listingNotAllowed();

    // Spec 4.4: the same request repeated returns the original run and reservation, even after expiry.
    const idempotencyId = `${key.accountId}:${body.idempotencyKey}`;
    const previous = tx.get('acceptances', idempotencyId);
    if (previous) {
      if (previous.quoteId !== quote.id) throw errors.idempotencyConflict();
      if (previous.contractHash !== body.acceptedContractHash) throw errors.contractMismatch();
      return { replayed: true, runId: previous.runId, answer: previous.answer };
    }

    // 2. Spend limit.
    const max = quote.maximumBuyerDebitAtomic;
    if (big(key.spendCommittedAtomic) + big(max) > big(key.spendLimitAtomic)) throw errors.spendLimit();
    // 3. Contract hash, then expiry.
    if (body.acceptedContractHash !== quote.contractHash) throw errors.contractMismatch();
    if (isExpired(quote, now)) throw errors.quoteExpired();
    // 4. Payments enabled for the currency, then not accepted before.
    if (currentFaults(deps).paymentsDisabled.includes(quote.profile)) {
      throw errors.unavailable(`Payments in ${ASSETS[quote.profile].currencyLabel} are temporarily unavailable. Try again later.`);
    }
    if (quote.acceptedBy) throw errors.alreadyAccepted();
    // 5. Available balance.
    const runId = deps.random.uuid();
    const reservationId = deps.random.uuid();
    reserve(deps, tx, key.accountId, quote.profile, max, runId);
    // 6. Listing still active and the run limits.
    const listing = tx.get('listings', quote.listingId);
    if (!listing || !listing.active) throw errors.runLimit('This agent listing is not accepting runs right now. The quote stays acceptable until it expires.', 60);
    const account = tx.get('accounts', key.accountId)!;
    checkRunLimits(account, now);
    checkPlatformQueue(deps, tx);

    const answer = commitAcceptance(deps, tx, { key, quote, account, runId, reservationId, now, rail, idempotencyKey: body.idempotencyKey });
    return { replayed: false, runId, answer };
  });
}

function acceptanceAnswer(run: RunRecord, reservation: AcceptanceAnswer['reservation'], notice: string): AcceptanceAnswer {
  return { run: runView(run), reservation, notice };
}

function commitAcceptance(
  deps: Deps,
  tx: StoreTx,
  a: { key: ApiKeyRecord; quote: QuoteRecord; account: Account; runId: string; reservationId: string; now: number; rail: Rail; idempotencyKey: string },
): AcceptanceAnswer {
  const { key, quote, account, runId, reservationId, now } = a;
  const at = iso(now);
  const notice = RAIL_NOTICE[ASSETS[quote.profile].rail];
  tx.put('keys', { ...tx.get('keys', key.id)!, spendCommittedAtomic: add(tx.get('keys', key.id)!.spendCommittedAtomic, quote.maximumBuyerDebitAtomic) });
  tx.put('quotes', { ...quote, acceptedBy: { idempotencyKey: a.idempotencyKey, runId, reservationId, contractHash: quote.contractHash } });
  tx.put('reservations', { id: reservationId, quoteId: quote.id, runId, accountId: key.accountId, profile: quote.profile, maximumAtomic: quote.maximumBuyerDebitAtomic });
  const recent = account.recentRunStarts.filter((t) => Date.parse(t) > now - DAY_MS);
  tx.put('accounts', { ...account, activeRunIds: [...account.activeRunIds, runId], recentRunStarts: [...recent, at] });
  const listing = tx.get('listings', quote.listingId)!;
  const run: RunRecord = {
    id: runId,
    accountId: key.accountId,
    keyId: key.id,
    quoteId: quote.id,
    reservationId,
    listingId: quote.listingId,
    versionId: quote.versionId,
    profile: quote.profile,
    input: quote.input,
    resultPolicy: quote.resultPolicy,
    status: 'queued',
    mode: a.rail === 'rehearsal' ? 'rehearsal' : deps.env === 'test' ? 'test' : 'live',
    attempt: 1,
    rpcUsed: 0,
    confirmedReads: 0,
    unconfirmedReads: 0,
    modelCostUsedAtomic: '0',
    deadlineAt: null,
    createdAt: at,
    updatedAt: at,
    startedAt: null,
    endedAt: null,
    output: null,
    error: null,
    plan: planRun(listing, quote),
    stepIndex: 0,
    pinned: null,
    eventCount: 0,
  };
  const queued = addEvent(deps, tx, run, 'queued', `Accepted; ${quote.maximumBuyerDebitAtomic} reserved; waiting for a worker.`);
  tx.put('runs', queued);
  // Spec 2.10, 4.4: kept with the acceptance, so that every replay answers these very values.
  const answer = acceptanceAnswer(queued, { id: reservationId, quoteId: quote.id, maximumAtomic: quote.maximumBuyerDebitAtomic }, notice);
  tx.put('acceptances', { id: `${key.accountId}:${a.idempotencyKey}`, accountId: key.accountId, idempotencyKey: a.idempotencyKey, quoteId: quote.id, contractHash: quote.contractHash, runId, reservationId, notice, answer });
  tx.put('billings', {
    id: runId,
    runId,
    quoteId: quote.id,
    reservationId,
    accountId: key.accountId,
    profile: quote.profile,
    status: 'reserved',
    settlement: null,
    pendingReason: null,
    authorizedRpcCalls: 0,
    reconciledRpcCalls: 0,
    unresolvedRpcCalls: 0,
    modelCost: null,
    notice,
    pendingDecision: null,
  });
  schedule(tx, 'run.step', runId, now + QUEUE_DELAY_MS);
  return answer;
}
