import type { Key } from 'ink';
import type { ConsoleState } from '../state/console-state.ts';
import type { HeldKey } from '../state/types.ts';
import type { CommandScope } from './command.ts';
import { keyPresses } from './key-presses.ts';
import { activeScope, globalsActive } from './screens.ts';

/** One scope's key handler, as a mounted view registers it (use-commands.ts). */
export interface KeyListener {
  scope: CommandScope;
  /** The caller's own gating (e.g. a list hidden behind another face). */
  isActive(): boolean;
  press(input: string, key: Key): void;
}

interface StoreLike {
  getState(): ConsoleState;
  setState(partial: Partial<ConsoleState>): void;
}

export interface KeyRouter {
  listen(listener: KeyListener): () => void;
  /** Every key the terminal sends, one Ink input event at a time. */
  receive(input: string, key: Key): void;
  /** Applies held keys once nothing loads, until one starts a load or moves the keyboard to another scope (whose view must render first). */
  drain(): void;
}

/** Whether a scope's commands apply while `current` owns the keyboard: its own, and global ones except while typing or asked. */
export const ownsKeyboard = (scope: CommandScope, current: CommandScope) => (scope === 'global' ? globalsActive(current) : scope === current);

/** Quitting never waits for a load. */
const isQuit = (press: HeldKey) => press.input === 'Q' && !press.key.ctrl;

/**
 * The one place keys enter the console. A key typed while a screen the
 * user asked for is loading (`loading` > 0) would reach a screen that has
 * nothing to act on yet (`q` on an agent not read yet, ⏎ on a runs list not
 * read yet), so it is held, shown in the hint bar, and applied in order when
 * the load ends. Keys typed while held keys wait are held behind them.
 *
 * Each press goes to the listeners whose scope owns the keyboard when it
 * arrives; each listener checks again at key time, so a key that moves the
 * keyboard ('/' opens the search box) is not also typed into the new scope.
 */
export function createKeyRouter(store: StoreLike): KeyRouter {
  const listeners = new Set<KeyListener>();

  function dispatch({ input, key }: HeldKey) {
    const current = activeScope(store.getState());
    const hearing = [...listeners].filter((l) => ownsKeyboard(l.scope, current) && l.isActive());
    for (const listener of hearing) listener.press(input, key);
  }

  return {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    receive(input, key) {
      for (const press of keyPresses(input, key)) {
        const { loading, heldKeys } = store.getState();
        if (isQuit(press) || (loading === 0 && heldKeys.length === 0)) dispatch(press);
        else store.setState({ heldKeys: [...heldKeys, press] });
      }
    },

    drain() {
      for (;;) {
        const state = store.getState();
        const [next, ...rest] = state.heldKeys;
        if (!next || state.loading > 0) return;
        store.setState({ heldKeys: rest });
        const before = `${state.screen} ${activeScope(state)}`;
        dispatch(next);
        const after = store.getState();
        if (`${after.screen} ${activeScope(after)}` !== before) return;
      }
    },
  };
}
