import type { Profile } from '../catalog/catalog-types.ts';
import { transact, type Deps } from '../context.ts';

/** Outages a developer can switch on (PUT /sim/faults) to rehearse the 503 paths. */
export interface Faults {
  paymentsDisabled: Profile[];
  researchProviderUnavailable: boolean;
  exportStorageUnavailable: boolean;
}

export const NO_FAULTS: Faults = { paymentsDisabled: [], researchProviderUnavailable: false, exportStorageUnavailable: false };

export function currentFaults(deps: Deps): Faults {
  return deps.store.getMeta<Faults>('faults') ?? NO_FAULTS;
}

export function setFaults(deps: Deps, change: Partial<Faults>): Faults {
  const next = { ...currentFaults(deps), ...change };
  if (change.paymentsDisabled) next.paymentsDisabled = [...new Set(change.paymentsDisabled)];
  transact(deps, (tx) => tx.setMeta('faults', next));
  return next;
}
