import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { ConsoleStore } from './store.ts';
import type { ConsoleState } from './console-state.ts';
import type { KeyRouter } from '../keys/key-router.ts';

interface ConsoleContextValue {
  store: ConsoleStore;
  /**
   * Whether key handlers may listen. Ink's useInput needs raw mode; without a
   * TTY enabling it throws, so handlers are gated on this (tests set it).
   */
  isInteractive: boolean;
  /** Where keys enter: the views' command listeners register with it. */
  router: KeyRouter;
}

const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function ConsoleProvider({ store, isInteractive, router, children }: ConsoleContextValue & { children: ReactNode }) {
  return <ConsoleContext.Provider value={{ store, isInteractive, router }}>{children}</ConsoleContext.Provider>;
}

function useConsoleContext(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('Console components must be rendered inside <ConsoleProvider>.');
  return value;
}

/** A slice of console state. Select existing values (not new objects) so renders stay stable. */
export function useConsole<T>(selector: (state: ConsoleState) => T): T {
  return useStore(useConsoleContext().store, selector);
}

/** The store itself, for handlers that read state at key time rather than subscribe to it. */
export function useConsoleStore(): ConsoleStore {
  return useConsoleContext().store;
}

export function useActions() {
  return useConsole((s) => s.actions);
}

export function useIsInteractive(): boolean {
  return useConsoleContext().isInteractive;
}

export function useKeyRouter(): KeyRouter {
  return useConsoleContext().router;
}
