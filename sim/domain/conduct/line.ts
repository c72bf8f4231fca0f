import type { ChaosKind, RouteGroup } from '../../chaos/profiles.ts';

/**
 * One request of a key, as the conduct rules need it and as spec 5 allows
 * keeping it: route (the declared pattern, never the path's values), method,
 * time and status, plus what understudy itself did (the chaos applied) and
 * keyed hashes that recognise a repeat without holding what was repeated.
 */
export interface ConductLine {
  /** Position in the simulator's conduct log (orders lines across keys). */
  seq: number;
  keyId: string;
  method: string;
  route: string;
  group: RouteGroup;
  /** Simulated time of the request (ISO). */
  at: string;
  /** Real time, milliseconds since the simulator started: the client's own waits are judged on it. */
  realMs: number;
  /** The status answered; null when the connection was reset before any answer. */
  status: number | null;
  /** Whether the answer reached the client (false: reset, or lost after commit). */
  answered: boolean;
  chaos: ChaosKind[];
  /** Keyed hash of the path and query: the same resource asked again, without the ids. */
  target: string;
  /** Keyed hashes (accepts, quote creations): the same body / idempotency key sent again. */
  bodyHash?: string;
  idempotencyKeyHash?: string;
  /** An accept that holds a reservation: the quote maximum moved to it (atomic units). */
  reservedAtomic?: string;
  /** A run read that answered 200: whether the run's status was terminal (spec 3.2). */
  runTerminal?: boolean;
  /** A 429's Retry-After, in seconds. */
  retryAfterSeconds?: number;
}

export type NewConductLine = Omit<ConductLine, 'seq'>;
