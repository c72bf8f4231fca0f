import { Box, Text } from 'ink';
import type { SimBalance } from '../../client/index.ts';
import { ASSET_DISPLAY, formatAtomic, formatProfileAmount } from '../amount.ts';
import { Bar } from '../components/bar.tsx';
import { barScale, historyLines, type HistoryLine } from '../ledger-history.ts';
import { useConsole } from '../state/context.tsx';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import { clockTime } from './detail-lines.ts';

const PARTS = [
  { field: 'availableAtomic', label: 'available', color: theme.ok },
  { field: 'reservedAtomic', label: 'reserved', color: theme.accent },
  { field: 'pendingAtomic', label: 'pending', color: theme.warn },
  { field: 'chargedAtomic', label: 'charged', color: theme.heading },
] as const;

const HISTORY_BAR = 10;
/** The history's second line starts past the time. */
const INDENT = ' '.repeat(9);

/**
 * One asset: deposited = available + reserved + pending + charged
 * (docs/pricing.md). Available is a share of the deposit; the other parts,
 * a run's money, are shares of the asset's bar scale (ledger-history.ts).
 */
function BalanceBars({ balance, scale, columns }: { balance: SimBalance; scale: string; columns: number }) {
  const half = Math.floor((columns - 1) / 2);
  const barWidth = Math.max(6, Math.min(20, half - 30));
  const cell = (part: (typeof PARTS)[number]) => (
    <Box width={half} key={part.field}>
      <Text wrap="truncate-end">
        <Text color={theme.muted}>{part.label.padEnd(10)}</Text>
        <Bar
          part={balance[part.field]}
          whole={part.field === 'availableAtomic' ? balance.depositedAtomic : scale}
          width={barWidth}
          color={part.color}
          caption={formatProfileAmount(balance[part.field], balance.profile)}
        />
      </Text>
    </Box>
  );
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{balance.profile}</Text>
        <Text color={theme.muted}>
          {' '}
          {balance.assetId} · deposited {formatProfileAmount(balance.depositedAtomic, balance.profile)} · scale {formatProfileAmount(scale, balance.profile)}
        </Text>
      </Text>
      <Box>
        {cell(PARTS[0])}
        {cell(PARTS[1])}
      </Box>
      <Box>
        {cell(PARTS[2])}
        {cell(PARTS[3])}
      </Box>
    </Box>
  );
}

/** The parts of a history line as text: what moved (exact), and the balances right after it. */
function describe(line: HistoryLine, profileWidth: number) {
  const { entry, after } = line;
  const display = ASSET_DISPLAY[entry.profile];
  const units = (atomic: string) => (display ? formatAtomic(atomic, display.decimals) : atomic);
  return {
    head: `${clockTime(entry.at)} ${entry.profile.padEnd(profileWidth)} ${entry.kind.padEnd(9)} ${formatProfileAmount(entry.amountAtomic, entry.profile, { exact: true })}`,
    run: entry.runId ? `run ${entry.runId.slice(0, 8)}` : '',
    balances: `avail ${units(after.availableAtomic)} · resv ${units(after.reservedAtomic)} · pend ${units(after.pendingAtomic)} · chg ${units(after.chargedAtomic)} ${display?.symbol ?? 'atomic'}`,
  };
}

type Described = ReturnType<typeof describe>;

/**
 * One line per posting when the widest fits the width, else two: what moved,
 * then its bar and the balances after it. Columns line up across lines.
 */
function historyLayout(described: Described[], width: number) {
  const headWidth = Math.max(0, ...described.map((d) => d.head.length));
  const runWidth = Math.max(0, ...described.map((d) => d.run.length));
  const balancesWidth = Math.max(0, ...described.map((d) => d.balances.length));
  const firstLine = headWidth + (runWidth ? 2 + runWidth : 0);
  const isOneLine = firstLine + 2 + HISTORY_BAR + 1 + balancesWidth <= width;
  // The run id is dropped, not cut, when the first line has no room for it.
  const showRun = runWidth > 0 && firstLine <= width;
  const head = (d: Described) => (showRun ? `${d.head.padEnd(headWidth)}  ${d.run.padEnd(runWidth)}` : d.head.padEnd(headWidth));
  return { isOneLine, head };
}

function HistoryEntry({ d, line, scale, layout }: { d: Described; line: HistoryLine; scale: string; layout: ReturnType<typeof historyLayout> }) {
  const bar = (
    <Bar part={line.entry.amountAtomic} whole={scale} width={HISTORY_BAR} color={line.entry.kind === 'release' || line.entry.kind === 'deposit' ? theme.ok : theme.accent} />
  );
  if (layout.isOneLine) {
    return (
      <Text wrap="truncate-end">
        {layout.head(d)}
        {'  '}
        {bar} {d.balances}
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">{layout.head(d).trimEnd()}</Text>
      <Text wrap="truncate-end">
        {INDENT}
        {bar} {d.balances}
      </Text>
    </Box>
  );
}

/** Screen 4: the account's balances per asset (GET /sim/accounts/{id}) and its postings (GET /sim/accounts/{id}/ledger). */
export function LedgerScreen() {
  const account = useConsole((s) => s.account);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const { entries, scroll } = useConsole((s) => s.ledger);
  const { columns, bodyRows } = useViewport();
  const balances = (account?.balances ?? []).filter((b) => b.depositedAtomic !== '0');
  const scales = new Map(balances.map((b) => [b.profile, barScale(entries ?? [], b)]));
  const newestFirst = historyLines(entries ?? []).reverse();
  const profileWidth = Math.max(0, ...newestFirst.map((line) => line.entry.profile.length));
  const described = newestFirst.map((line) => describe(line, profileWidth));
  const layout = historyLayout(described, columns - 1);
  const historyRows = Math.max(2, bodyRows - 1 - balances.length * 3 - 2);
  const perPage = Math.max(1, Math.floor(historyRows / (layout.isOneLine ? 1 : 2)));
  const maxScroll = Math.max(0, newestFirst.length - perPage);
  useCommands('ledger', { view: { maxScroll, pageRows: Math.max(1, perPage - 1) } });

  if (!controlAvailable) return <Text color={theme.muted}>The ledger comes from the control API, which is hidden against a remote service.</Text>;
  if (!account) return <Text color={theme.muted}>Reading the account…</Text>;
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>Ledger </Text>
        <Text color={theme.muted}>
          · {account.account.label ?? account.account.id} ({account.account.type}) · bars: available ÷ deposit, the rest ÷ scale
        </Text>
      </Text>
      {balances.length === 0 ? (
        <Text color={theme.muted}>No deposits yet.</Text>
      ) : (
        balances.map((b) => <BalanceBars key={b.profile} balance={b} scale={scales.get(b.profile)!} columns={columns} />)
      )}
      <Text bold color={theme.heading} wrap="truncate-end">
        History <Text color={theme.muted}>{entries ? `${entries.length} postings, newest first · each with the balances right after it` : 'reading…'}</Text>
      </Text>
      {newestFirst.slice(top, top + perPage).map((line, i) => (
        <HistoryEntry key={line.entry.id} d={described[top + i]} line={line} scale={scales.get(line.entry.profile) ?? line.entry.amountAtomic} layout={layout} />
      ))}
      {maxScroll > 0 ? <Text color={theme.muted}>{`${top + 1}–${Math.min(newestFirst.length, top + perPage)} of ${newestFirst.length} · ↑↓ scroll`}</Text> : null}
    </Box>
  );
}
