import type { Key } from 'ink';
import type { ConsoleActions, ConsoleState } from '../state/console-state.ts';

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

/** Offered only with the control API (embedded or local simulator). */
export const hasControl = (state: ConsoleState) => state.controlAvailable;

/** ↑↓ (and k j) scrolling of a screen's detail, and page keys, for one scope. */
export function scrollCommands(scope: CommandScope, scroll: (actions: ConsoleActions, delta: number, maxScroll: number) => void, withLetters = true): Command[] {
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
export function selectCommands(scope: CommandScope, move: (actions: ConsoleActions, delta: number) => void, description = 'move'): Command[] {
  return [
    { id: `${scope}-up`, scope, keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description, run: ({ actions }) => move(actions, -1) },
    { id: `${scope}-down`, scope, keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: `${description} down`, isHintHidden: true, isHelpHidden: true, run: ({ actions }) => move(actions, 1) },
  ];
}
