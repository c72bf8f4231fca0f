import { useApp, useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';
import { activeScope, findCommand, globalsActive, keyPresses, type CommandScope, type CommandView } from './keys.ts';
import { useConsole, useConsoleStore, useIsInteractive } from './state/context.tsx';

interface UseCommandsOptions {
  /** Further gating by the caller; the console's interactivity always applies. */
  isActive?: boolean;
  view?: CommandView;
  /** Keys no command claims (the search box types them). */
  onUnmatched?: (input: string, key: Key) => void;
}

const owns = (scope: CommandScope, current: CommandScope) => (scope === 'global' ? globalsActive(current) : scope === current);

/**
 * Listens for one scope's commands. Ink's useInput is gated with isActive:
 * only the scope that owns the keyboard listens (plus global), and nothing
 * listens without raw mode (no TTY: enabling it would throw).
 *
 * Every listener hears every key, so a key that moves the keyboard to
 * another scope ('/' opens the search box) must not also be handled by the
 * listener of that scope. Hence a second check at key time: a listener whose
 * scope lost the keyboard since the last render drops the key.
 */
export function useCommands(scope: CommandScope, options: UseCommandsOptions = {}) {
  const store = useConsoleStore();
  const { exit } = useApp();
  const isInteractive = useIsInteractive();
  const latest = useRef(options);
  latest.current = options;

  const handlePress = useCallback(
    (input: string, key: Key) => {
      const state = store.getState();
      const current = activeScope(state);
      if (!owns(scope, current)) return;
      // A key the scope in charge takes over (e.g. `>` while waiting to retry) is not the global command's.
      if (scope === 'global' && findCommand(current, state, input, key)?.overridesGlobal) return;
      const command = findCommand(scope, state, input, key);
      if (command) state.actions.shell.clearNotice();
      if (command) command.run({ actions: state.actions, state, view: latest.current.view ?? {}, input, quit: exit });
      else latest.current.onUnmatched?.(input, key);
    },
    [scope, store, exit],
  );
  // Each press reads the store afresh, so a burst of keys acts as the same keys one by one.
  const handler = useCallback((input: string, key: Key) => keyPresses(input, key).forEach((press) => handlePress(press.input, press.key)), [handlePress]);

  const ownsNow = useConsole((state) => owns(scope, activeScope(state)));
  useInput(handler, { isActive: isInteractive && ownsNow && (options.isActive ?? true) });
}
