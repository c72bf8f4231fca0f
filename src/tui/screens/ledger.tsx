import { Box, Text } from 'ink';
import type { SimBalance, SimLedgerEntry } from '../../client/index.ts';
import { formatProfileAmount } from '../amount.ts';
import { Bar } from '../components/bar.tsx';
import { useConsole } from '../state/context.tsx';
import { clip } from '../text.ts';
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

/** One asset: deposited = available + reserved + pending + charged (docs/runs.md), each part a bar of the deposit. */
function BalanceBars({ balance, columns }: { balance: SimBalance; columns: number }) {
  const half = Math.floor((columns - 2) / 2);
  const barWidth = Math.max(6, Math.min(20, half - 30));
  const cell = (part: (typeof PARTS)[number]) => (
    <Box width={half} key={part.field}>
      <Text wrap="truncate-end">
        <Text color={theme.muted}>{part.label.padEnd(10)}</Text>
        <Bar part={balance[part.field]} whole={balance.depositedAtomic} width={barWidth} color={part.color} caption={formatProfileAmount(balance[part.field], balance.profile)} />
      </Text>
    </Box>
  );
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{balance.profile}</Text>
        <Text color={theme.muted}>
          {' '}
          {balance.assetId} · deposited {formatProfileAmount(balance.depositedAtomic, balance.profile)}
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

function historyRow(entry: SimLedgerEntry, width: number): string {
  const amount = formatProfileAmount(entry.amountAtomic, entry.profile);
  const after = formatProfileAmount(entry.after.availableAtomic, entry.profile);
  const run = entry.runId ? `run ${entry.runId.slice(0, 8)}` : '';
  return clip(`${clockTime(entry.at)} ${entry.profile.padEnd(13)} ${entry.kind.padEnd(9)} ${amount.padStart(18)}  avail ${after}  ${run}`, width);
}

/** Screen 4: the account's balances per asset (GET /sim/accounts/{id}) and its postings (GET /sim/accounts/{id}/ledger). */
export function LedgerScreen() {
  const account = useConsole((s) => s.account);
  const controlAvailable = useConsole((s) => s.controlAvailable);
  const { entries, scroll } = useConsole((s) => s.ledger);
  const { columns, bodyRows } = useViewport();
  const balances = (account?.balances ?? []).filter((b) => b.depositedAtomic !== '0');
  const historyRows = Math.max(2, bodyRows - 2 - balances.length * 3 - 2);
  const newestFirst = entries ? [...entries].reverse() : [];
  const maxScroll = Math.max(0, newestFirst.length - historyRows);
  useCommands('ledger', { view: { maxScroll, pageRows: historyRows - 1 } });

  if (!controlAvailable) return <Text color={theme.muted}>The ledger comes from the control API, which is hidden against a remote service.</Text>;
  if (!account) return <Text color={theme.muted}>Reading the account…</Text>;
  const top = Math.min(scroll, maxScroll);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Ledger </Text>
        <Text color={theme.muted}>
          · {account.account.label ?? account.account.id} ({account.account.type}) · bars are shares of the deposit
        </Text>
      </Text>
      {balances.length === 0 ? <Text color={theme.muted}>No deposits yet.</Text> : balances.map((b) => <BalanceBars key={b.profile} balance={b} columns={columns} />)}
      <Text bold color={theme.heading}>
        History <Text color={theme.muted}>{entries ? `${entries.length} postings, newest first` : 'reading…'}</Text>
      </Text>
      {newestFirst.slice(top, top + historyRows).map((entry) => (
        <Text key={entry.id}>{historyRow(entry, columns - 1)}</Text>
      ))}
      {maxScroll > 0 ? <Text color={theme.muted}>{`${top + 1}–${Math.min(newestFirst.length, top + historyRows)} of ${newestFirst.length} · ↑↓ scroll`}</Text> : null}
    </Box>
  );
}
