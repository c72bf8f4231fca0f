import type { Key } from 'ink';
import { isTerminal } from '../client/index.ts';
import type { ConsoleActions, ConsoleState, RunView, Screen } from './state/types.ts';

/**
 * Keys are data: this one table drives key handling (useCommands), the key
 * hint bar, the clock bar and the help overlay, so what is shown is what works.
 *
 * A scope is where a command applies. `global` commands work everywhere
 * except while typing (search box, prompt); a screen's scope works on that
 * screen while no overlay is open; `help`, `search` and `prompt` own the
 * keyboard while open. Screens with two faces (a list and one item, a form
 * and its result) have one scope per face.
 */
export type CommandScope =
  | 'global'
  | 'help'
  | 'waiting'
  | 'confirm'
  | 'prompt'
  | 'home'
  | 'catalog'
  | 'search'
  | 'filters'
  | 'agent'
  | 'quote-form'
  | 'quote'
  | 'quote-confirm'
  | 'runs'
  | 'run'
  | 'ledger'
  | 'monitors'
  | 'monitor'
  | 'notifications'
  | 'inbox'
  | 'requests'
  | 'report'
  | 'faults'
  | 'scenario'
  | 'presenter'
  | 'scenario-picker';

/** A key press: a printable input, or one of Ink's named keys. */
export type KeyMatch = { input: string } | { key: keyof Pick<Key, 'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'return' | 'escape' | 'pageUp' | 'pageDown' | 'backspace' | 'delete'> };

/** Facts a screen knows at render time that a command needs (e.g. how far a detail can scroll). */
export interface CommandView {
  maxScroll?: number;
  pageRows?: number;
}

export interface CommandContext {
  actions: ConsoleActions;
  state: ConsoleState;
  view: CommandView;
  /** The printable input that matched (screen switching reads the digit). */
  input: string;
  quit(): void;
}

export interface Command {
  id: string;
  scope: CommandScope;
  keys: KeyMatch[];
  /** How the key is written in the hint bar and help. */
  label: string;
  description: string;
  /** Hidden from the hint bar (still active). */
  isHintHidden?: boolean;
  /** Hidden from help too: the twin of a command whose label already names both keys (↑ and ↓). */
  isHelpHidden?: boolean;
  /** The keys as help lists them, when the label alone is too terse. */
  helpKeys?: string;
  /** Shown in the clock bar instead of the hint bar, with this short text. */
  clockBarText?: string;
  /** Takes the key from the global command bound to it while this scope owns the keyboard. */
  overridesGlobal?: boolean;
  /** Only offered when this holds (e.g. the control API is available). */
  when?: (state: ConsoleState) => boolean;
  run(context: CommandContext): void;
}

const hasControl = (state: ConsoleState) => state.controlAvailable;
// A command is offered (hinted and handled) only while it can still do something.
const runCancellable = (state: ConsoleState) => state.run.read !== null && state.run.read.run.id === state.run.runId && !isTerminal(state.run.read.run.status);
const monitorStoppable = (state: ConsoleState) => {
  const { detail, isDetailOpen, list, selected } = state.monitors;
  const monitor = (isDetailOpen ? detail?.monitor : undefined) ?? list?.[selected];
  return monitor?.status === 'active' || monitor?.status === 'paused';
};
const notificationUnread = (state: ConsoleState) => {
  const notification = state.notifications.list?.[state.notifications.selected];
  return notification !== undefined && !notification.acknowledgedAt;
};
const frozenClock = (state: ConsoleState) => state.controlAvailable && state.clock?.mode === 'frozen';
const scenarioOpen = (state: ConsoleState) => state.scenario.name !== null;
const scenarioStepsLeft = (state: ConsoleState) => scenarioOpen(state) && !state.scenario.isBusy && state.scenario.next < state.scenario.total;

const pendingBilling = (state: ConsoleState) => state.controlAvailable && state.run.view === 'billing' && state.run.billing?.status === 'pending';

/** The number keys of the screens, in tab order. */
export const SCREEN_KEYS: Array<{ key: string; screen: Screen; label: string; short: string; screens: Screen[] }> = [
  { key: '1', screen: 'home', label: 'Key', short: 'Key', screens: ['home'] },
  { key: '2', screen: 'catalog', label: 'Catalog', short: 'Catalog', screens: ['catalog', 'filters', 'agent', 'quote'] },
  { key: '3', screen: 'run', label: 'Runs', short: 'Runs', screens: ['run'] },
  { key: '4', screen: 'ledger', label: 'Ledger', short: 'Ledger', screens: ['ledger'] },
  { key: '5', screen: 'monitors', label: 'Monitors', short: 'Monitors', screens: ['monitors'] },
  { key: '6', screen: 'notifications', label: 'Notifications', short: 'Notices', screens: ['notifications'] },
  { key: '7', screen: 'inbox', label: 'Webhook inbox', short: 'Inbox', screens: ['inbox'] },
  { key: '8', screen: 'requests', label: 'Request log', short: 'Log', screens: ['requests'] },
  { key: '9', screen: 'faults', label: 'Faults', short: 'Faults', screens: ['faults'] },
  { key: '0', screen: 'scenario', label: 'Scenario', short: 'Scenario', screens: ['scenario'] },
];

/** ↑↓ (and k j) scrolling of a screen's detail, and page keys, for one scope. */
function scrollCommands(scope: CommandScope, scroll: (actions: ConsoleActions, delta: number, maxScroll: number) => void, withLetters = true): Command[] {
  return [
    {
      id: `${scope}-scroll-up`,
      scope,
      keys: [{ key: 'upArrow' }, ...(withLetters ? [{ input: 'k' }] : [])],
      label: '↑↓',
      helpKeys: withLetters ? '↑↓ k j' : '↑↓',
      description: 'scroll',
      run: ({ actions, view }) => scroll(actions, -1, view.maxScroll ?? 0),
    },
    {
      id: `${scope}-scroll-down`,
      scope,
      keys: [{ key: 'downArrow' }, ...(withLetters ? [{ input: 'j' }] : [])],
      label: '↓',
      description: 'scroll down',
      isHintHidden: true,
      isHelpHidden: true,
      run: ({ actions, view }) => scroll(actions, 1, view.maxScroll ?? 0),
    },
    {
      id: `${scope}-page-down`,
      scope,
      keys: [{ key: 'pageDown' }],
      label: 'pgdn',
      helpKeys: 'pgdn pgup',
      description: 'page down/up',
      isHintHidden: true,
      run: ({ actions, view }) => scroll(actions, view.pageRows ?? 10, view.maxScroll ?? 0),
    },
    {
      id: `${scope}-page-up`,
      scope,
      keys: [{ key: 'pageUp' }],
      label: 'pgup',
      description: 'page up',
      isHintHidden: true,
      isHelpHidden: true,
      run: ({ actions, view }) => scroll(actions, -(view.pageRows ?? 10), view.maxScroll ?? 0),
    },
  ];
}

/** ↑↓ (and k j) moving a list's selection. */
function selectCommands(scope: CommandScope, move: (actions: ConsoleActions, delta: number) => void, description = 'move'): Command[] {
  return [
    { id: `${scope}-up`, scope, keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description, run: ({ actions }) => move(actions, -1) },
    { id: `${scope}-down`, scope, keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: `${description} down`, isHintHidden: true, isHelpHidden: true, run: ({ actions }) => move(actions, 1) },
  ];
}

const runView = (id: string, input: string, view: RunView, description: string): Command => ({
  id,
  scope: 'run',
  keys: [{ input }],
  label: input,
  description,
  run: ({ actions }) => void actions.showRunView(view),
});

export const COMMANDS: Command[] = [
  // global
  { id: 'help', scope: 'global', keys: [{ input: '?' }], label: '?', description: 'help', run: ({ actions }) => actions.toggleHelp() },
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
      if (target) actions.go(target.screen);
    },
  },
  { id: 'refresh', scope: 'global', keys: [{ input: 'r' }], label: 'r', description: 'refresh', run: ({ actions }) => void actions.refresh() },
  {
    id: 'advance-1s',
    scope: 'global',
    keys: [{ input: '.' }],
    label: '.',
    description: 'clock +1 s',
    clockBarText: '+1s',
    isHintHidden: true,
    when: hasControl,
    run: ({ actions }) => void actions.advanceClock(1),
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
    run: ({ actions }) => void actions.advanceClock(10),
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
    run: ({ actions }) => void actions.advanceClock(60),
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
    run: ({ actions }) => void actions.advanceToNextEvent(),
  },

  // help overlay
  { id: 'help-close', scope: 'help', keys: [{ key: 'escape' }], label: 'esc', description: 'close help', run: ({ actions }) => actions.closeHelp() },

  // a Retry-After being waited out (the waiting line counts it down)
  { id: 'waiting-stop', scope: 'waiting', keys: [{ key: 'escape' }], label: 'esc', description: 'stop waiting', run: ({ actions }) => actions.stopWaiting() },
  // On a frozen clock waiting cannot free a run limit: only simulated time ends runs.
  {
    id: 'waiting-advance',
    scope: 'waiting',
    keys: [{ input: '>' }],
    label: '>',
    description: 'next event, retry now',
    overridesGlobal: true,
    when: frozenClock,
    run: ({ actions }) => void actions.advanceAndRetry(),
  },

  // a yes/no question (cancelling a run)
  { id: 'confirm-yes', scope: 'confirm', keys: [{ input: 'y' }, { key: 'return' }], label: 'y', helpKeys: 'y ⏎', description: 'yes', run: ({ actions }) => void actions.answerConfirm(true) },
  { id: 'confirm-no', scope: 'confirm', keys: [{ input: 'n' }, { key: 'escape' }], label: 'n', helpKeys: 'n esc', description: 'no', run: ({ actions }) => void actions.answerConfirm(false) },

  // one-line prompt (printable keys are typed; see useCommands' fallback)
  { id: 'prompt-submit', scope: 'prompt', keys: [{ key: 'return' }], label: '⏎', description: 'ok', run: ({ actions }) => void actions.submitPrompt() },
  { id: 'prompt-cancel', scope: 'prompt', keys: [{ key: 'escape' }], label: 'esc', description: 'cancel', run: ({ actions }) => actions.cancelPrompt() },
  { id: 'prompt-erase', scope: 'prompt', keys: [{ key: 'backspace' }, { key: 'delete' }], label: '⌫', description: 'erase', run: ({ actions }) => actions.erasePrompt() },

  // key screen
  { id: 'home-next-key', scope: 'home', keys: [{ input: 'k' }], label: 'k', description: 'next key', when: (state) => state.keys.length > 1, run: ({ actions }) => void actions.switchKey() },

  // catalog
  ...selectCommands('catalog', (actions, delta) => actions.moveSelection(delta)),
  { id: 'catalog-open', scope: 'catalog', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.openSelectedAgent() },
  { id: 'catalog-quote', scope: 'catalog', keys: [{ input: 'q' }], label: 'q', description: 'quote', run: ({ actions }) => void actions.quoteSelectedAgent() },
  // Global, so that from a fresh start the first quote is two keys away: d, then q.
  { id: 'demo-agent', scope: 'global', keys: [{ input: 'd' }], label: 'd', description: 'demo agent', run: ({ actions }) => void actions.openDemoAgent() },
  { id: 'catalog-search', scope: 'catalog', keys: [{ input: '/' }], label: '/', description: 'search', run: ({ actions }) => actions.startSearch() },
  { id: 'catalog-filters', scope: 'catalog', keys: [{ input: 'f' }], label: 'f', description: 'filters', run: ({ actions }) => actions.openFilters() },
  { id: 'catalog-sort', scope: 'catalog', keys: [{ input: 's' }], label: 's', description: 'sort', run: ({ actions }) => void actions.cycleSort() },
  { id: 'catalog-next', scope: 'catalog', keys: [{ input: 'n' }, { key: 'rightArrow' }, { key: 'pageDown' }], label: 'n/p', helpKeys: 'n p ←→', description: 'next/prev page', run: ({ actions }) => void actions.nextPage() },
  { id: 'catalog-previous', scope: 'catalog', keys: [{ input: 'p' }, { key: 'leftArrow' }, { key: 'pageUp' }], label: 'p', description: 'previous page', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => void actions.previousPage() },
  { id: 'catalog-clear', scope: 'catalog', keys: [{ input: 'c' }], label: 'c', description: 'clear', run: ({ actions }) => void actions.clearQuery() },

  // search box (printable keys are typed; see useCommands' fallback)
  { id: 'search-submit', scope: 'search', keys: [{ key: 'return' }], label: '⏎', description: 'search', run: ({ actions }) => void actions.submitSearch() },
  { id: 'search-cancel', scope: 'search', keys: [{ key: 'escape' }], label: 'esc', description: 'cancel', run: ({ actions }) => actions.cancelSearch() },
  { id: 'search-erase', scope: 'search', keys: [{ key: 'backspace' }, { key: 'delete' }], label: '⌫', helpKeys: '⌫', description: 'erase', run: ({ actions }) => actions.eraseSearch() },

  // filter editor
  { id: 'filters-up', scope: 'filters', keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description: 'filter', run: ({ actions }) => actions.moveFilterRow(-1) },
  { id: 'filters-down', scope: 'filters', keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: 'next filter', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.moveFilterRow(1) },
  { id: 'filters-next-value', scope: 'filters', keys: [{ key: 'rightArrow' }, { input: 'l' }, { input: ' ' }], label: '←→', helpKeys: '←→ h l', description: 'change value', run: ({ actions }) => actions.cycleFilterValue(1) },
  { id: 'filters-previous-value', scope: 'filters', keys: [{ key: 'leftArrow' }, { input: 'h' }], label: '←', description: 'previous value', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.cycleFilterValue(-1) },
  { id: 'filters-clear', scope: 'filters', keys: [{ input: 'x' }], label: 'x', description: 'clear all', run: ({ actions }) => actions.clearFilterDraft() },
  { id: 'filters-apply', scope: 'filters', keys: [{ key: 'return' }], label: '⏎', description: 'apply', run: ({ actions }) => void actions.applyFilters() },
  { id: 'filters-cancel', scope: 'filters', keys: [{ key: 'escape' }], label: 'esc', description: 'cancel', run: ({ actions }) => actions.go('catalog') },

  // agent detail
  { id: 'agent-quote', scope: 'agent', keys: [{ input: 'q' }], label: 'q', description: 'quote', run: ({ actions }) => void actions.quoteAgent() },
  { id: 'agent-up', scope: 'agent', keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description: 'scroll', run: ({ actions, view }) => actions.scrollAgent(-1, view.maxScroll ?? 0) },
  { id: 'agent-down', scope: 'agent', keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: 'scroll down', isHintHidden: true, isHelpHidden: true, run: ({ actions, view }) => actions.scrollAgent(1, view.maxScroll ?? 0) },
  {
    id: 'agent-page-down',
    scope: 'agent',
    keys: [{ key: 'pageDown' }, { input: ' ' }],
    label: 'space',
    helpKeys: 'spc pgdn',
    description: 'page down',
    isHintHidden: true,
    run: ({ actions, view }) => actions.scrollAgent(view.pageRows ?? 10, view.maxScroll ?? 0),
  },
  {
    id: 'agent-page-up',
    scope: 'agent',
    keys: [{ key: 'pageUp' }],
    label: 'pgup',
    helpKeys: 'pgup',
    description: 'page up',
    isHintHidden: true,
    run: ({ actions, view }) => actions.scrollAgent(-(view.pageRows ?? 10), view.maxScroll ?? 0),
  },
  { id: 'agent-back', scope: 'agent', keys: [{ key: 'escape' }, { input: 'b' }], label: 'esc', helpKeys: 'esc b', description: 'back', run: ({ actions }) => actions.go('catalog') },

  // quote builder: the form
  ...selectCommands('quote-form', (actions, delta) => actions.moveQuoteRow(delta), 'field'),
  { id: 'quote-form-next-choice', scope: 'quote-form', keys: [{ key: 'rightArrow' }, { input: 'l' }], label: '←→', helpKeys: '←→ h l', description: 'choice', run: ({ actions }) => actions.cycleQuoteChoice(1) },
  { id: 'quote-form-previous-choice', scope: 'quote-form', keys: [{ key: 'leftArrow' }, { input: 'h' }], label: '←', description: 'previous choice', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.cycleQuoteChoice(-1) },
  { id: 'quote-form-edit', scope: 'quote-form', keys: [{ key: 'return' }], label: '⏎', description: 'edit', run: ({ actions }) => actions.editQuoteRow() },
  { id: 'quote-form-clear', scope: 'quote-form', keys: [{ input: 'x' }], label: 'x', description: 'omit', run: ({ actions }) => actions.clearQuoteRow() },
  { id: 'quote-form-submit', scope: 'quote-form', keys: [{ input: 'q' }], label: 'q', description: 'get quote', run: ({ actions }) => void actions.requestQuote() },
  { id: 'quote-form-back', scope: 'quote-form', keys: [{ key: 'escape' }], label: 'esc', description: 'back', run: ({ actions }) => actions.backFromQuote() },

  // quote builder: the quote
  { id: 'quote-accept', scope: 'quote', keys: [{ input: 'a' }], label: 'a', description: 'accept', run: ({ actions }) => actions.startAccept() },
  { id: 'quote-again', scope: 'quote', keys: [{ input: 'q' }], label: 'q', description: 'new quote', run: ({ actions }) => void actions.requestQuote() },
  { id: 'quote-edit', scope: 'quote', keys: [{ input: 'e' }], label: 'e', description: 'edit inputs', run: ({ actions }) => actions.openQuoteForm() },
  ...scrollCommands('quote', (actions, delta, max) => actions.scrollQuote(delta, max)),
  { id: 'quote-back', scope: 'quote', keys: [{ key: 'escape' }], label: 'esc', description: 'back', run: ({ actions }) => actions.backFromQuote() },

  // quote builder: confirming the acceptance
  { id: 'accept-confirm', scope: 'quote-confirm', keys: [{ input: 'y' }, { key: 'return' }], label: 'y', helpKeys: 'y ⏎', description: 'confirm accept', run: ({ actions }) => void actions.confirmAccept() },
  { id: 'accept-cancel', scope: 'quote-confirm', keys: [{ input: 'n' }, { key: 'escape' }], label: 'n', helpKeys: 'n esc', description: 'do not accept', run: ({ actions }) => actions.cancelAccept() },

  // runs: the list, then one run
  ...selectCommands('runs', (actions, delta) => actions.moveRunSelection(delta)),
  { id: 'runs-open', scope: 'runs', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.openSelectedRun() },
  runView('run-status', 's', 'status', 'status'),
  runView('run-billing', 'b', 'billing', 'billing'),
  runView('run-receipt', 'i', 'receipt', 'receipt'),
  runView('run-export', 'e', 'export', 'export'),
  { id: 'run-evidence', scope: 'run', keys: [{ input: 'w' }], label: 'w', description: 'save evidence', run: ({ actions }) => void actions.saveEvidence() },
  { id: 'run-cancel', scope: 'run', keys: [{ input: 'x' }], label: 'x', description: 'cancel run', when: runCancellable, run: ({ actions }) => actions.cancelRun() },
  // Reads left unconfirmed (spec 3.3: billing pending) are resolved by the operator, here through /sim.
  { id: 'run-reads-confirmed', scope: 'run', keys: [{ input: 'c' }], label: 'c', description: 'reads confirmed', when: pendingBilling, run: ({ actions }) => void actions.reconcileRun(true) },
  { id: 'run-reads-unconfirmed', scope: 'run', keys: [{ input: 'u' }], label: 'u', description: 'reads not confirmed', when: pendingBilling, run: ({ actions }) => void actions.reconcileRun(false) },
  ...scrollCommands('run', (actions, delta, max) => actions.scrollRun(delta, max)),
  { id: 'run-back', scope: 'run', keys: [{ key: 'escape' }], label: 'esc', description: 'runs', run: ({ actions }) => actions.closeRun() },

  // ledger
  ...scrollCommands('ledger', (actions, delta, max) => actions.scrollLedger(delta, max)),

  // monitors: the list, then one monitor
  ...selectCommands('monitors', (actions, delta) => actions.moveMonitorSelection(delta)),
  { id: 'monitors-open', scope: 'monitors', keys: [{ key: 'return' }], label: '⏎', description: 'detail', run: ({ actions }) => void actions.openSelectedMonitor() },
  { id: 'monitors-new', scope: 'monitors', keys: [{ input: 'n' }], label: 'n', description: 'new demo monitor', run: ({ actions }) => void actions.createDemoMonitor() },
  { id: 'monitors-mine', scope: 'monitors', keys: [{ input: 'm' }], label: 'm', description: 'mine match', when: hasControl, run: ({ actions }) => void actions.mineMatchingLog() },
  { id: 'monitors-stop', scope: 'monitors', keys: [{ input: 'x' }], label: 'x', description: 'stop', when: monitorStoppable, run: ({ actions }) => void actions.stopMonitor() },
  ...scrollCommands('monitor', (actions, delta, max) => actions.scrollMonitor(delta, max)),
  { id: 'monitor-mine', scope: 'monitor', keys: [{ input: 'm' }], label: 'm', description: 'mine match', when: hasControl, run: ({ actions }) => void actions.mineMatchingLog() },
  { id: 'monitor-stop', scope: 'monitor', keys: [{ input: 'x' }], label: 'x', description: 'stop', when: monitorStoppable, run: ({ actions }) => void actions.stopMonitor() },
  { id: 'monitor-back', scope: 'monitor', keys: [{ key: 'escape' }], label: 'esc', description: 'monitors', run: ({ actions }) => actions.closeMonitor() },

  // notifications
  ...selectCommands('notifications', (actions, delta) => actions.moveNotificationSelection(delta)),
  { id: 'notifications-ack', scope: 'notifications', keys: [{ input: 'a' }], label: 'a', description: 'acknowledge', when: notificationUnread, run: ({ actions }) => void actions.ackNotification() },

  // webhook inbox
  { id: 'inbox-connect', scope: 'inbox', keys: [{ input: 'c' }], label: 'c', description: 'connect monitors', when: hasControl, run: ({ actions }) => void actions.connectInbox() },
  ...scrollCommands('inbox', (actions, delta, max) => actions.scrollInbox(delta, max)),

  // request log
  ...scrollCommands('requests', (actions, delta, max) => actions.scrollRequests(delta, max)),
  { id: 'requests-report', scope: 'requests', keys: [{ input: 'g' }], label: 'g', description: 'graded conduct report', when: hasControl, run: ({ actions }) => actions.go('report') },

  // conduct report (GET /sim/report)
  ...scrollCommands('report', (actions, delta, max) => actions.scrollReport(delta, max)),

  // faults
  ...selectCommands('faults', (actions, delta) => actions.moveFaultRow(delta), 'switch'),
  { id: 'faults-toggle', scope: 'faults', keys: [{ input: ' ' }, { key: 'return' }], label: 'space', helpKeys: 'space ⏎', description: 'toggle', when: hasControl, run: ({ actions }) => void actions.toggleFault() },

  // scenario stepping; presenter mode (--play) steps on its own, and space pauses it
  { id: 'scenario-open', scope: 'scenario', keys: [{ input: 'o' }], label: 'o', description: 'open file', run: ({ actions }) => void actions.openScenarioPicker() },
  { id: 'scenario-step', scope: 'scenario', keys: [{ input: 'n' }, { input: ' ' }], label: 'n', helpKeys: 'n space', description: 'next step', when: scenarioStepsLeft, run: ({ actions }) => void actions.stepScenario() },
  { id: 'scenario-all', scope: 'scenario', keys: [{ input: 'a' }], label: 'a', description: 'run to end', when: scenarioStepsLeft, run: ({ actions }) => void actions.runScenarioToEnd() },
  ...selectCommands('scenario', (actions, delta) => actions.moveScenarioStep(delta), 'step'),
  {
    id: 'scenario-page-down',
    scope: 'scenario',
    keys: [{ key: 'pageDown' }],
    label: 'pgdn',
    helpKeys: 'pgdn pgup',
    description: 'scroll step',
    isHintHidden: true,
    run: ({ actions, view }) => actions.scrollScenario(view.pageRows ?? 5, view.maxScroll ?? 0),
  },
  {
    id: 'scenario-page-up',
    scope: 'scenario',
    keys: [{ key: 'pageUp' }],
    label: 'pgup',
    description: 'scroll step up',
    isHintHidden: true,
    isHelpHidden: true,
    run: ({ actions, view }) => actions.scrollScenario(-(view.pageRows ?? 5), view.maxScroll ?? 0),
  },
  { id: 'scenario-close', scope: 'scenario', keys: [{ input: 'x' }], label: 'x', description: 'close', when: scenarioOpen, run: ({ actions }) => void actions.closeScenario() },

  // presenter mode (--play): the steps run on their own, one per pace
  { id: 'presenter-pause', scope: 'presenter', keys: [{ input: ' ' }], label: 'space', description: 'pause/resume', run: ({ actions }) => actions.togglePresenterPause() },
  { id: 'presenter-step', scope: 'presenter', keys: [{ input: 'n' }], label: 'n', description: 'next step now', run: ({ actions }) => void actions.stepScenario() },
  ...selectCommands('presenter', (actions, delta) => actions.moveScenarioStep(delta), 'step'),
  { id: 'presenter-stop', scope: 'presenter', keys: [{ input: 'x' }], label: 'x', description: 'close', run: ({ actions }) => void actions.closeScenario() },

  // the scenario picker: shipped fixtures and recent files
  ...selectCommands('scenario-picker', (actions, delta) => actions.moveScenarioPick(delta), 'file'),
  { id: 'scenario-picker-open', scope: 'scenario-picker', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.openPickedScenario() },
  { id: 'scenario-picker-type', scope: 'scenario-picker', keys: [{ input: 't' }, { input: '/' }], label: 't', helpKeys: 't /', description: 'type a path', run: ({ actions }) => actions.askScenarioFile() },
  { id: 'scenario-picker-close', scope: 'scenario-picker', keys: [{ key: 'escape' }], label: 'esc', description: 'close', run: ({ actions }) => actions.closeScenarioPicker() },
];

export function matches(match: KeyMatch, input: string, key: Key): boolean {
  if ('input' in match) return input === match.input && !key.ctrl;
  return key[match.key] === true;
}

export function commandsFor(scope: CommandScope, state: ConsoleState): Command[] {
  return COMMANDS.filter((c) => c.scope === scope && (!c.when || c.when(state)));
}

export function findCommand(scope: CommandScope, state: ConsoleState, input: string, key: Key): Command | undefined {
  return commandsFor(scope, state).find((c) => c.keys.some((m) => matches(m, input, key)));
}

type ScopeFacts = Pick<ConsoleState, 'isHelpOpen' | 'screen' | 'catalog'> & Partial<Pick<ConsoleState, 'prompt' | 'confirm' | 'waiting' | 'quote' | 'run' | 'monitors' | 'scenario'>>;

/** The scope that owns the screen's keys right now (global commands aside). */
export function activeScope(state: ScopeFacts): CommandScope {
  if (state.isHelpOpen) return 'help';
  // A wait or a question is about what was just asked for: it comes before anything on screen.
  if (state.waiting) return 'waiting';
  if (state.confirm) return 'confirm';
  if (state.prompt) return 'prompt';
  switch (state.screen) {
    case 'catalog':
      return state.catalog.searchDraft !== null ? 'search' : 'catalog';
    case 'quote':
      return state.quote?.mode === 'confirm' ? 'quote-confirm' : state.quote?.mode === 'quote' ? 'quote' : 'quote-form';
    case 'run':
      return state.run?.runId ? 'run' : 'runs';
    case 'monitors':
      return state.monitors?.isDetailOpen ? 'monitor' : 'monitors';
    case 'scenario':
      return state.scenario?.picker ? 'scenario-picker' : state.scenario?.presenter && state.scenario.next < state.scenario.total ? 'presenter' : 'scenario';
    default:
      return state.screen;
  }
}

/** Global commands step aside while text is typed, so 'q' or '1' can be typed, and while a question waits for y or n. */
export const globalsActive = (scope: CommandScope) => scope !== 'search' && scope !== 'prompt' && scope !== 'confirm';

/** Every scope a screen can own, for help and the command-table test. */
export const SCREEN_SCOPES: Record<Screen, CommandScope[]> = {
  home: ['home'],
  catalog: ['catalog', 'search'],
  filters: ['filters'],
  agent: ['agent'],
  quote: ['quote-form', 'quote', 'quote-confirm'],
  run: ['runs', 'run'],
  ledger: ['ledger'],
  monitors: ['monitors', 'monitor'],
  notifications: ['notifications'],
  inbox: ['inbox'],
  requests: ['requests'],
  report: ['report'],
  faults: ['faults'],
  scenario: ['scenario', 'presenter', 'scenario-picker'],
};

export const SCOPE_TITLES: Record<CommandScope, string> = {
  global: 'Everywhere',
  help: 'Help',
  waiting: 'Waiting to retry',
  confirm: 'Question',
  prompt: 'Text field',
  home: 'Key',
  catalog: 'Catalog',
  search: 'Search box',
  filters: 'Filters',
  agent: 'Agent detail',
  'quote-form': 'Quote form',
  quote: 'Quote',
  'quote-confirm': 'Accepting',
  runs: 'Runs',
  run: 'Run',
  ledger: 'Ledger',
  monitors: 'Monitors',
  monitor: 'Monitor detail',
  notifications: 'Notifications',
  inbox: 'Webhook inbox',
  requests: 'Request log',
  report: 'Conduct report',
  faults: 'Faults',
  scenario: 'Scenario',
  presenter: 'Presenting',
  'scenario-picker': 'Scenario files',
};

/** The Key of a single character, as Ink's parser gives it for that character alone. */
function keyOf(char: string, base: Key): Key {
  const plain: Key = { ...base, upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageUp: false, pageDown: false, return: false, escape: false, tab: false, backspace: false, delete: false, ctrl: false, meta: false, shift: /[A-Z]/.test(char) };
  if (char === '\r') return { ...plain, return: true };
  if (char === '\t') return { ...plain, tab: true };
  if (char === '\b') return { ...plain, backspace: true };
  // Ink calls DEL (what the Backspace key sends) `delete`; both erase here.
  if (char === '\u007F') return { ...plain, delete: true };
  const code = char.codePointAt(0) ?? 0;
  if (code >= 1 && code <= 26) return { ...plain, ctrl: true };
  return plain;
}

/**
 * The key presses in one input event. Ink splits its input at escape
 * sequences only, and a terminal read returns whatever arrived since the
 * last one, so keys typed faster than the console reads them (six
 * Backspaces in one burst, or two at 30 a second on a busy machine) come as
 * one event Ink does not recognise: its input is the raw characters and no
 * key flag is set. Such an event is split into one press per character;
 * anything Ink recognised (an arrow, a single key) is passed on as is.
 */
export function keyPresses(input: string, key: Key): Array<{ input: string; key: Key }> {
  const chars = Array.from(input);
  const recognised = key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.return || key.escape || key.tab || key.backspace || key.delete || key.ctrl || key.meta;
  if (chars.length < 2 || recognised) return [{ input, key }];
  return chars.map((char) => {
    const charKey = keyOf(char, key);
    // As Ink reports a control character: its letter with ctrl, no printable input for the named keys.
    const charInput = charKey.ctrl ? String.fromCharCode((char.codePointAt(0) ?? 0) + 96) : charKey.return || charKey.tab || charKey.backspace || charKey.delete ? '' : char;
    return { input: charInput, key: charKey };
  });
}
