import { transact, type Deps, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import { LIMITS } from '../limits/index.ts';

/**
 * Spec 8: the platform-wide queue bound shared by all accounts. Its fill is every run
 * queued or running, of every account (what each account's run limit counts too).
 * The bound in force is the simulator's default unless PUT /sim/platform-queue set
 * another, kept in the store so that a restart keeps it and a reset forgets it.
 */
const META_KEY = 'platformQueueBound';

/** Seconds a refused acceptance is told to wait, as for an account's active-run limit (acceptance.ts). */
const RETRY_AFTER_SECONDS = 10;

export interface PlatformQueue {
  platformQueueBound: number;
  queuedRuns: number;
}

export function platformQueue(deps: Deps, reader: Pick<StoreTx, 'all' | 'getMeta'> = deps.store): PlatformQueue {
  return {
    platformQueueBound: reader.getMeta<number>(META_KEY) ?? LIMITS.platformQueueBound,
    queuedRuns: reader.all('accounts').reduce((n, account) => n + account.activeRunIds.length, 0),
  };
}

export function setPlatformQueueBound(deps: Deps, bound: number): PlatformQueue {
  transact(deps, (tx) => tx.setMeta(META_KEY, bound));
  return platformQueue(deps);
}

/** Spec 4.5 check 6: a full platform queue refuses another run with 429; the quote stays acceptable until it expires. */
export function checkPlatformQueue(deps: Deps, tx: StoreTx): void {
  const { platformQueueBound, queuedRuns } = platformQueue(deps, tx);
  if (queuedRuns >= platformQueueBound) {
    throw errors.runLimit('The platform-wide run queue is full. Try again shortly; the quote stays acceptable until it expires.', RETRY_AFTER_SECONDS);
  }
}
