import type { Key } from 'ink';
import type { ConsoleActions, ConsoleState } from './state/types.ts';

/**
 * Keys are data: this one table drives key handling (useCommands), the key
 * hint bar and the help overlay, so what is shown is what works.
 *
 * A scope is where a command applies. `global` commands work everywhere
 * except while typing a search; a screen's scope works on that screen while
 * no overlay is open; `help` and `search` own the keyboard while open.
 */
export type CommandScope = 'global' | 'help' | 'home' | 'catalog' | 'search' | 'filters' | 'agent';

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
  /** Only offered when this holds (e.g. the control API is available). */
  when?: (state: ConsoleState) => boolean;
  run(context: CommandContext): void;
}

const hasControl = (state: ConsoleState) => state.controlAvailable;

export const COMMANDS: Command[] = [
  // global
  { id: 'help', scope: 'global', keys: [{ input: '?' }], label: '?', description: 'help', run: ({ actions }) => actions.toggleHelp() },
  { id: 'quit', scope: 'global', keys: [{ input: 'q' }], label: 'q', description: 'quit', run: ({ quit }) => quit() },
  { id: 'go-home', scope: 'global', keys: [{ input: '1' }], label: '1', description: 'key', run: ({ actions }) => actions.go('home') },
  { id: 'go-catalog', scope: 'global', keys: [{ input: '2' }], label: '2', description: 'catalog', run: ({ actions }) => actions.go('catalog') },
  { id: 'refresh', scope: 'global', keys: [{ input: 'r' }], label: 'r', description: 'refresh', run: ({ actions }) => void actions.refresh() },
  {
    id: 'advance-clock',
    scope: 'global',
    keys: [{ input: '+' }],
    label: '+',
    description: 'clock +1 min',
    when: hasControl,
    run: ({ actions }) => void actions.advanceClock(60),
  },

  // help overlay
  { id: 'help-close', scope: 'help', keys: [{ key: 'escape' }], label: 'esc', description: 'close help', run: ({ actions }) => actions.closeHelp() },

  // catalog
  { id: 'catalog-up', scope: 'catalog', keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description: 'move', run: ({ actions }) => actions.moveSelection(-1) },
  { id: 'catalog-down', scope: 'catalog', keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: 'move down', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.moveSelection(1) },
  { id: 'catalog-open', scope: 'catalog', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.openSelectedAgent() },
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

/** The scope that owns the screen's keys right now (global commands aside). */
export function activeScope(state: Pick<ConsoleState, 'isHelpOpen' | 'screen' | 'catalog'>): CommandScope {
  if (state.isHelpOpen) return 'help';
  if (state.screen === 'catalog' && state.catalog.searchDraft !== null) return 'search';
  return state.screen;
}

/** Global commands step aside while text is typed, so 'q' can be searched for. */
export const globalsActive = (scope: CommandScope) => scope !== 'search';
