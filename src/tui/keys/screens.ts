import type { ConsoleState } from '../state/console-state.ts';
import type { Screen } from '../state/types.ts';
import type { CommandScope } from './command.ts';

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
