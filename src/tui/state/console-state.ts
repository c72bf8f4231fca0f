/**
 * The console's state, assembled from slices: each slice module (catalog.ts,
 * run.ts, ...) adds its part of the state to ConsoleData and its actions,
 * under its own name, to ConsoleActions, with a `declare module` block next
 * to its code. This module imports none of them, so a slice can type the
 * whole store it reads without an import cycle; createConsoleStore
 * (store.ts) composes the slices' factories into one zustand store.
 *
 * Adding a screen: see src/tui/README.md ("Adding a screen").
 */
export interface ConsoleData {}

export interface ConsoleActions {}

export interface ConsoleState extends ConsoleData {
  /** One namespace per slice: `actions.catalog.nextPage()`, `actions.run.openRun(id)`. */
  actions: ConsoleActions;
}

export type SetState = (partial: Partial<ConsoleData> | ((state: ConsoleState) => Partial<ConsoleData>)) => void;
export type GetState = () => ConsoleState;
