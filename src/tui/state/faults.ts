import type { Profile, SimFaults } from '../../client/index.ts';
import type { SliceContext } from './call.ts';

export interface FaultsState {
  faults: SimFaults | null;
  row: number;
}

export interface FaultsActions {
  loadFaults(): Promise<void>;
  moveFaultRow(delta: number): void;
  toggleFault(): Promise<void>;
}

declare module './console-state.ts' {
  interface ConsoleData {
    faults: FaultsState;
  }
  interface ConsoleActions {
    faults: FaultsActions;
  }
}

export const emptyFaults = (): FaultsState => ({ faults: null, row: 0 });

/** The rows of the faults screen: one per switch of PUT /sim/faults (contract section 2). */
export type FaultRow = { kind: 'payments'; profile: Profile } | { kind: 'researchProviderUnavailable' } | { kind: 'exportStorageUnavailable' };

export const FAULT_ROWS: FaultRow[] = [
  { kind: 'payments', profile: 'sim' },
  { kind: 'payments', profile: 'local_custody' },
  { kind: 'payments', profile: 'solana_sol' },
  { kind: 'payments', profile: 'solana_usdc' },
  { kind: 'researchProviderUnavailable' },
  { kind: 'exportStorageUnavailable' },
];

export function isFaultOn(faults: SimFaults | null, row: FaultRow): boolean {
  if (!faults) return false;
  if (row.kind === 'payments') return (faults.paymentsDisabled ?? []).includes(row.profile);
  return faults[row.kind] === true;
}

/** The fault switches (control API, PUT /sim/faults). */
export function faultsActions({ set, get, call }: SliceContext): FaultsActions {
  return {
    async loadFaults() {
      if (!get().controlAvailable) return;
      const result = await call((c) => c.sim.faults());
      if (result.ok) set((s) => ({ faults: { ...s.faults, faults: result.value } }));
    },
    moveFaultRow(delta) {
      set((s) => ({ faults: { ...s.faults, row: (s.faults.row + delta + FAULT_ROWS.length) % FAULT_ROWS.length } }));
    },
    async toggleFault() {
      const { faults, row } = get().faults;
      if (!get().controlAvailable || !faults) return;
      const target = FAULT_ROWS[row];
      const next: SimFaults = { paymentsDisabled: [...(faults.paymentsDisabled ?? [])], researchProviderUnavailable: faults.researchProviderUnavailable === true, exportStorageUnavailable: faults.exportStorageUnavailable === true };
      if (target.kind === 'payments') {
        const disabled = next.paymentsDisabled!;
        next.paymentsDisabled = disabled.includes(target.profile) ? disabled.filter((p) => p !== target.profile) : [...disabled, target.profile];
      } else next[target.kind] = !next[target.kind];
      const result = await call((c) => c.sim.setFaults(next));
      if (!result.ok) return;
      const label = target.kind === 'payments' ? `payments in ${target.profile}` : target.kind;
      set((s) => ({ faults: { ...s.faults, faults: result.value }, notice: `${label}: ${isFaultOn(result.value, target) ? 'fault ON' : 'fault off'}` }));
    },
  };
}
