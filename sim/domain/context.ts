import type { Clock } from '../runtime/clock.ts';
import type { SeededRandom } from '../runtime/random.ts';
import type { SealingKey } from '../runtime/sealing.ts';
import type { Environment } from './keys/records.ts';
import type { StorePort, StoreTx } from './store-port.ts';

export type { StoreTx };
export type Store = StorePort;

/** What every domain service is built from; sim/app.ts is the only place that makes one. */
export interface Deps {
  clock: Clock;
  /** The instant a webhook attempt is signed with (serve --webhook-time; sim/runtime/clock.ts signingTime). */
  signingTime: () => number;
  random: SeededRandom;
  /** Keyed material kept out of the store (PATH.secrets): what secrets are sealed with. */
  sealing: SealingKey;
  store: Store;
  env: Environment;
}

/**
 * One atomic change: the store transaction plus the generator's position, so a
 * refused change also gives back the random draws it made and a replay of the
 * same requests draws the same values.
 */
export function transact<R>(deps: Deps, fn: (tx: StoreTx) => R): R {
  // A mark, not a snapshot: the state is encoded only when the change drew from it
  // (the 30-day fast-forward encoded it twice in each of its 29,463 jobs).
  const before = deps.random.mark();
  try {
    return deps.store.transact((tx) => {
      const result = fn(tx);
      if (deps.random.position !== before.counter) tx.setMeta('random', deps.random.snapshot());
      return result;
    });
  } catch (error) {
    deps.random.rewind(before);
    throw error;
  }
}

export const iso = (ms: number) => new Date(ms).toISOString();
