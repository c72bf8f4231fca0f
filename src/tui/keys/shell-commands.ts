import type { ConsoleState } from '../state/console-state.ts';
import { SCREEN_KEYS } from './screens.ts';
import { hasControl, type Command } from './command.ts';

const frozenClock = (state: ConsoleState) => state.controlAvailable && state.clock?.mode === 'frozen';

/** Everywhere: help, quit, screens, refresh, the clock; and what owns the keyboard over any screen (help, a wait, a question, the prompt), and the Key screen. */
export const shellCommands: Command[] = [
  // global
  { id: 'help', scope: 'global', keys: [{ input: '?' }], label: '?', description: 'help', run: ({ actions }) => actions.shell.toggleHelp() },
  // q quotes (catalog, agent, quote builder); quitting is the capital Q, or ctrl+c.
  { id: 'quit', scope: 'global', keys: [{ input: 'Q' }], label: 'Q', helpKeys: 'Q ctrl+c', description: 'quit', run: ({ quit }) => quit() },
  {
    id: 'go-screen',
    scope: 'global',
    keys: SCREEN_KEYS.map((s) => ({ input: s.key })),
    label: '1-0',
    helpKeys: '1 … 9 0',
    description: 'screens',
    run: ({ actions, input }) => {
      const target = SCREEN_KEYS.find((s) => s.key === input);
      if (target) actions.shell.go(target.screen);
    },
  },
  { id: 'refresh', scope: 'global', keys: [{ input: 'r' }], label: 'r', description: 'refresh', run: ({ actions }) => void actions.shell.refresh() },
  {
    id: 'advance-1s',
    scope: 'global',
    keys: [{ input: '.' }],
    label: '.',
    description: 'clock +1 s',
    clockBarText: '+1s',
    isHintHidden: true,
    when: hasControl,
    run: ({ actions }) => void actions.shell.advanceClock(1),
  },
  {
    id: 'advance-10s',
    scope: 'global',
    keys: [{ input: ':' }],
    label: ':',
    description: 'clock +10 s',
    clockBarText: '+10s',
    isHintHidden: true,
    when: hasControl,
    run: ({ actions }) => void actions.shell.advanceClock(10),
  },
  {
    id: 'advance-clock',
    scope: 'global',
    keys: [{ input: '+' }],
    label: '+',
    description: 'clock +1 min',
    clockBarText: '+1m',
    isHintHidden: true,
    when: hasControl,
    run: ({ actions }) => void actions.shell.advanceClock(60),
  },
  {
    id: 'advance-next',
    scope: 'global',
    keys: [{ input: '>' }],
    label: '>',
    description: 'next event',
    clockBarText: 'next event',
    isHintHidden: true,
    when: hasControl,
    run: ({ actions }) => void actions.shell.advanceToNextEvent(),
  },

  // help overlay
  { id: 'help-close', scope: 'help', keys: [{ key: 'escape' }], label: 'esc', description: 'close help', run: ({ actions }) => actions.shell.closeHelp() },

  // a Retry-After being waited out (the waiting line counts it down)
  { id: 'waiting-stop', scope: 'waiting', keys: [{ key: 'escape' }], label: 'esc', description: 'stop waiting', run: ({ actions }) => actions.waiting.stopWaiting() },
  // On a frozen clock waiting cannot free a run limit: only simulated time ends runs.
  {
    id: 'waiting-advance',
    scope: 'waiting',
    keys: [{ input: '>' }],
    label: '>',
    description: 'next event, retry now',
    overridesGlobal: true,
    when: frozenClock,
    run: ({ actions }) => void actions.waiting.advanceAndRetry(),
  },

  // a yes/no question (cancelling a run)
  { id: 'confirm-yes', scope: 'confirm', keys: [{ input: 'y' }, { key: 'return' }], label: 'y', helpKeys: 'y ⏎', description: 'yes', run: ({ actions }) => void actions.confirm.answerConfirm(true) },
  { id: 'confirm-no', scope: 'confirm', keys: [{ input: 'n' }, { key: 'escape' }], label: 'n', helpKeys: 'n esc', description: 'no', run: ({ actions }) => void actions.confirm.answerConfirm(false) },

  // one-line prompt (printable keys are typed; see useCommands' fallback)
  { id: 'prompt-submit', scope: 'prompt', keys: [{ key: 'return' }], label: '⏎', description: 'ok', run: ({ actions }) => void actions.prompt.submitPrompt() },
  { id: 'prompt-cancel', scope: 'prompt', keys: [{ key: 'escape' }], label: 'esc', description: 'cancel', run: ({ actions }) => actions.prompt.cancelPrompt() },
  { id: 'prompt-erase', scope: 'prompt', keys: [{ key: 'backspace' }, { key: 'delete' }], label: '⌫', description: 'erase', run: ({ actions }) => actions.prompt.erasePrompt() },

  // key screen
  { id: 'home-next-key', scope: 'home', keys: [{ input: 'k' }], label: 'k', description: 'next key', when: (state) => state.keys.length > 1, run: ({ actions }) => void actions.shell.switchKey() },
  { id: 'home-drift', scope: 'home', keys: [{ input: 'D' }], label: 'D', description: 'drift check', when: (state) => state.service !== null && !state.service.isEmbedded, run: ({ actions }) => void actions.drift.offerDrift() },

];
