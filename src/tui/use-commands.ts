import { useApp, type Key } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import { activeScope, findCommand, type CommandScope, type CommandView } from './keys.ts';
import { ownsKeyboard } from './keys/key-router.ts';
import { useConsoleStore, useKeyRouter } from './state/context.tsx';

interface UseCommandsOptions {
  /** Further gating by the caller. */
  isActive?: boolean;
  view?: CommandView;
  /** Keys no command claims (the search box types them). */
  onUnmatched?: (input: string, key: Key) => void;
}

/**
 * Listens for one scope's commands: registers with the console's key router
 * (keys/key-router.ts), which hands each key to the scopes that own the
 * keyboard when it arrives (the scope in charge, plus global), holding keys
 * typed while a screen loads. The store is read afresh at each press.
 */
export function useCommands(scope: CommandScope, options: UseCommandsOptions = {}) {
  const store = useConsoleStore();
  const router = useKeyRouter();
  const { exit } = useApp();
  const latest = useRef(options);
  latest.current = options;

  const handlePress = useCallback(
    (input: string, key: Key) => {
      const state = store.getState();
      const current = activeScope(state);
      // A scope that lost the keyboard to an earlier listener of the same key (global `3` leaving the catalog) drops it.
      if (!ownsKeyboard(scope, current)) return;
      // A key the scope in charge takes over (e.g. `>` while waiting to retry) is not the global command's.
      if (scope === 'global' && findCommand(current, state, input, key)?.overridesGlobal) return;
      const command = findCommand(scope, state, input, key);
      if (command) state.actions.shell.clearNotice();
      if (command) command.run({ actions: state.actions, state, view: latest.current.view ?? {}, input, quit: exit });
      else latest.current.onUnmatched?.(input, key);
    },
    [scope, store, exit],
  );

  useEffect(() => router.listen({ scope, isActive: () => latest.current.isActive ?? true, press: handlePress }), [router, scope, handlePress]);
}
