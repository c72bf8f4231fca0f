import type { ChaosKind, RouteGroup } from './profiles.ts';

/**
 * One request of a key, as the conduct rules need it and as spec 5 allows
 * keeping it: route (the declared pattern, never the path's values), method,
 * time and status, plus what understudy itself did (the chaos applied), keyed
 * hashes that recognise a repeat without holding what was repeated, and the
 * run an accept made (the simulator's own record, named by the lost-answer account).
 */
export interface ConductLine {
  /** Position in the simulator's conduct log (orders lines across keys, and against clock moves). */
  seq: number;
  keyId: string;
  method: string;
  route: string;
  group: RouteGroup;
  /** Simulated time of the request (ISO): rate limits count it. */
  at: string;
  /** Real time, milliseconds since the simulator started: the client's own waits are judged on it. */
  realMs: number;
  /** The status answered; null when the connection was reset before any answer. */
  status: number | null;
  /** Whether the answer reached the client (false: reset, lost after commit, or the client left first). */
  answered: boolean;
  chaos: ChaosKind[];
  /** Keyed hash of the path and query: the same resource asked again, without the ids. */
  target: string;
  /** Keyed hashes (accepts, quote creations): the same body / idempotency key sent again. */
  bodyHash?: string;
  idempotencyKeyHash?: string;
  /** An accept that committed (202): the run it made and the reservation it holds (atomic units). */
  runId?: string;
  reservedAtomic?: string;
  /** A run read that answered 200: whether the run's status was terminal (spec 3.2). */
  runTerminal?: boolean;
  /** A 429's Retry-After, in seconds. */
  retryAfterSeconds?: number;
}

export type NewConductLine = Omit<ConductLine, 'seq'>;
