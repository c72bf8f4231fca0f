import { Box, Text } from 'ink';
import type { AgentSummary } from '../../client/index.ts';
import { ASSET_DISPLAY, formatProfileAmount } from '../amount.ts';
import { SelectableTable, type Column } from '../components/selectable-table.tsx';
import { useConsole, useActions } from '../state/context.tsx';
import type { CatalogQueryState } from '../state/catalog.ts';
import { fit } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';

/** The per-run price cap (spec 2.4: pricing.maximumBuyerDebitAtomic) in the key's own asset. */
function priceIn(agent: AgentSummary, profile: string | undefined): string {
  const offer = agent.offers.find((o) => o.profile === profile);
  if (!offer) return '—';
  if (!offer.enabled) return 'disabled';
  const cap = offer.pricing?.maximumBuyerDebitAtomic;
  return cap ? formatProfileAmount(cap, offer.profile) : '—';
}

function describeQuery(query: CatalogQueryState): string {
  const filters = Object.entries(query.filters).map(([name, value]) => `${name}=${value}`);
  const parts = [query.q ? `"${query.q}"` : null, ...filters].filter(Boolean);
  return parts.length ? parts.join('  ') : 'no search or filters';
}

/** Like a one-line text field: long text scrolls so the end being typed stays in view. */
function visibleTail(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}

/** The public catalog (spec 4.1): one page at a time, a row per agent. */
export function CatalogScreen() {
  const actions = useActions();
  useCommands('catalog');
  useCommands('search', {
    // Printable keys go into the search box; control sequences do not.
    onUnmatched: (input, key) => {
      if (input && !key.ctrl && !key.meta && !key.tab) actions.catalog.typeSearch(input);
    },
  });
  const catalog = useConsole((s) => s.catalog);
  const profile = useConsole((s) => s.key?.profile);
  const { columns } = useViewport();

  const tableColumns: Column<AgentSummary>[] = [
    { header: 'Agent', width: 'rest', cell: (a) => a.name },
    { header: 'Chains', width: 'content', cell: (a) => (a.chains ?? []).join(',') },
    { header: `Max ${(profile && ASSET_DISPLAY[profile]?.symbol) || 'price'}`, width: 'content', align: 'right', cell: (a) => priceIn(a, profile) },
    { header: 'Avail', width: 5, cell: (a) => (a.availability?.available === false ? 'no' : 'yes') },
  ];

  const { page, query, pageIndex, pageSize, selected, isLoading, searchDraft } = catalog;
  const pages = page ? Math.max(1, Math.ceil(page.total / pageSize)) : 1;
  const current = page?.agents[selected];

  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Catalog </Text>
        <Text color={theme.muted}>
          {page ? `${page.total} agents · page ${pageIndex + 1}/${pages} · sort ${query.sort}` : ''}
          {isLoading ? ' · loading…' : ''}
        </Text>
      </Text>
      {searchDraft !== null ? (
        <Text>
          <Text color={theme.accent}>search: </Text>
          {visibleTail(searchDraft, columns - 11)}
          <Text color={theme.accent}>█</Text>
        </Text>
      ) : (
        <Text color={theme.muted}>{fit(describeQuery(query), columns - 1)}</Text>
      )}
      {page && page.agents.length === 0 ? (
        <Text color={theme.muted}>No agent matches. Press c to clear the search and filters.</Text>
      ) : page ? (
        <SelectableTable columns={tableColumns} rows={page.agents} selected={selected} rowKey={(a) => a.listingId} width={columns - 1} />
      ) : (
        <Text color={theme.muted}>Reading the catalog…</Text>
      )}
      <Text color={theme.muted}>{current?.description ? fit(current.description, columns - 1) : ' '}</Text>
    </Box>
  );
}
