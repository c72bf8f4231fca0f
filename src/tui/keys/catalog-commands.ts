import { selectCommands, type Command } from './command.ts';

/** The catalog, its search box and filter editor, and the agent detail (spec 2.5). */
export const catalogCommands: Command[] = [
  // catalog
  ...selectCommands('catalog', (actions, delta) => actions.catalog.moveSelection(delta)),
  { id: 'catalog-open', scope: 'catalog', keys: [{ key: 'return' }], label: '⏎', description: 'open', run: ({ actions }) => void actions.agent.openSelectedAgent() },
  { id: 'catalog-quote', scope: 'catalog', keys: [{ input: 'q' }], label: 'q', description: 'quote', run: ({ actions }) => void actions.quote.quoteSelectedAgent() },
  // Global, so that from a fresh start the first quote is two keys away: d, then q.
  { id: 'demo-agent', scope: 'global', keys: [{ input: 'd' }], label: 'd', description: 'demo agent', run: ({ actions }) => void actions.agent.openDemoAgent() },
  { id: 'catalog-search', scope: 'catalog', keys: [{ input: '/' }], label: '/', description: 'search', run: ({ actions }) => actions.catalog.startSearch() },
  { id: 'catalog-filters', scope: 'catalog', keys: [{ input: 'f' }], label: 'f', description: 'filters', run: ({ actions }) => actions.filters.openFilters() },
  { id: 'catalog-sort', scope: 'catalog', keys: [{ input: 's' }], label: 's', description: 'sort', run: ({ actions }) => void actions.catalog.cycleSort() },
  { id: 'catalog-next', scope: 'catalog', keys: [{ input: 'n' }, { key: 'rightArrow' }, { key: 'pageDown' }], label: 'n/p', helpKeys: 'n p ←→', description: 'next/prev page', run: ({ actions }) => void actions.catalog.nextPage() },
  { id: 'catalog-previous', scope: 'catalog', keys: [{ input: 'p' }, { key: 'leftArrow' }, { key: 'pageUp' }], label: 'p', description: 'previous page', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => void actions.catalog.previousPage() },
  { id: 'catalog-clear', scope: 'catalog', keys: [{ input: 'c' }], label: 'c', description: 'clear', run: ({ actions }) => void actions.catalog.clearQuery() },

  // search box (printable keys are typed; see useCommands' fallback)
  { id: 'search-submit', scope: 'search', keys: [{ key: 'return' }], label: '⏎', description: 'search', run: ({ actions }) => void actions.catalog.submitSearch() },
  { id: 'search-cancel', scope: 'search', keys: [{ key: 'escape' }], label: 'esc', description: 'cancel', run: ({ actions }) => actions.catalog.cancelSearch() },
  { id: 'search-erase', scope: 'search', keys: [{ key: 'backspace' }, { key: 'delete' }], label: '⌫', helpKeys: '⌫', description: 'erase', run: ({ actions }) => actions.catalog.eraseSearch() },

  // filter editor
  { id: 'filters-up', scope: 'filters', keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description: 'filter', run: ({ actions }) => actions.filters.moveFilterRow(-1) },
  { id: 'filters-down', scope: 'filters', keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: 'next filter', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.filters.moveFilterRow(1) },
  { id: 'filters-next-value', scope: 'filters', keys: [{ key: 'rightArrow' }, { input: 'l' }, { input: ' ' }], label: '←→', helpKeys: '←→ h l', description: 'change value', run: ({ actions }) => actions.filters.cycleFilterValue(1) },
  { id: 'filters-previous-value', scope: 'filters', keys: [{ key: 'leftArrow' }, { input: 'h' }], label: '←', description: 'previous value', isHintHidden: true, isHelpHidden: true, run: ({ actions }) => actions.filters.cycleFilterValue(-1) },
  { id: 'filters-clear', scope: 'filters', keys: [{ input: 'x' }], label: 'x', description: 'clear all', run: ({ actions }) => actions.filters.clearFilterDraft() },
  { id: 'filters-apply', scope: 'filters', keys: [{ key: 'return' }], label: '⏎', description: 'apply', run: ({ actions }) => void actions.filters.applyFilters() },
  { id: 'filters-cancel', scope: 'filters', keys: [{ key: 'escape' }], label: 'esc', description: 'cancel', run: ({ actions }) => actions.shell.go('catalog') },

  // agent detail
  { id: 'agent-quote', scope: 'agent', keys: [{ input: 'q' }], label: 'q', description: 'quote', run: ({ actions }) => void actions.quote.quoteAgent() },
  { id: 'agent-up', scope: 'agent', keys: [{ key: 'upArrow' }, { input: 'k' }], label: '↑↓', helpKeys: '↑↓ k j', description: 'scroll', run: ({ actions, view }) => actions.agent.scrollAgent(-1, view.maxScroll ?? 0) },
  { id: 'agent-down', scope: 'agent', keys: [{ key: 'downArrow' }, { input: 'j' }], label: '↓', description: 'scroll down', isHintHidden: true, isHelpHidden: true, run: ({ actions, view }) => actions.agent.scrollAgent(1, view.maxScroll ?? 0) },
  {
    id: 'agent-page-down',
    scope: 'agent',
    keys: [{ key: 'pageDown' }, { input: ' ' }],
    label: 'space',
    helpKeys: 'spc pgdn',
    description: 'page down',
    isHintHidden: true,
    run: ({ actions, view }) => actions.agent.scrollAgent(view.pageRows ?? 10, view.maxScroll ?? 0),
  },
  {
    id: 'agent-page-up',
    scope: 'agent',
    keys: [{ key: 'pageUp' }],
    label: 'pgup',
    helpKeys: 'pgup',
    description: 'page up',
    isHintHidden: true,
    run: ({ actions, view }) => actions.agent.scrollAgent(-(view.pageRows ?? 10), view.maxScroll ?? 0),
  },
  { id: 'agent-back', scope: 'agent', keys: [{ key: 'escape' }, { input: 'b' }], label: 'esc', helpKeys: 'esc b', description: 'back', run: ({ actions }) => actions.shell.go('catalog') },

];
