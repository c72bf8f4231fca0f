import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { SimBalance } from '../../client/index.ts';
import { formatProfileAmount } from '../amount.ts';
import { Amount } from '../components/amount.tsx';
import { SpendBar } from '../components/spend-bar.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useConsole } from '../state/context.tsx';
import { wrap } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';

const DAY_MS = 86_400_000;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Box width={11} flexShrink={0}>
        <Text color={theme.muted}>{label}</Text>
      </Box>
      <Box flexGrow={1}>{children}</Box>
    </Box>
  );
}

/** When the key expires, counted on the simulated clock when there is one. */
function expiryText(expiresAt: string, nowIso: string | undefined): string {
  const at = expiresAt.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z');
  if (!nowIso) return at;
  const days = Math.floor((Date.parse(expiresAt) - Date.parse(nowIso)) / DAY_MS);
  return days >= 0 ? `${at} (in ${days} d)` : `${at} (passed)`;
}

const BALANCE_COLUMNS = [
  { header: 'available', field: 'availableAtomic' },
  { header: 'reserved', field: 'reservedAtomic' },
  { header: 'pending', field: 'pendingAtomic' },
  { header: 'charged', field: 'chargedAtomic' },
  { header: 'deposited', field: 'depositedAtomic' },
] as const;
const CELL_GAP = '  ';

/**
 * One row per asset, each column as wide as its widest amount; when the
 * amounts are too long for a table in this width (an 18-decimal remainder is
 * 24 characters), each asset gets a line of its own with its parts wrapped
 * under it, so nothing is cut or torn.
 */
function BalanceTable({ balances, columns }: { balances: SimBalance[]; columns: number }) {
  const cells = balances.map((b) => [b.profile, ...BALANCE_COLUMNS.map((c) => formatProfileAmount(b[c.field], b.profile))]);
  const headers = ['asset', ...BALANCE_COLUMNS.map((c) => c.header)];
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(CELL_GAP);
  if (widths.reduce((a, b) => a + b) + CELL_GAP.length * (widths.length - 1) <= columns - 1) {
    return (
      <Box flexDirection="column">
        <Text color={theme.heading} bold>
          {line(headers)}
        </Text>
        {cells.map((row) => (
          <Text key={row[0]}>{line(row)}</Text>
        ))}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      {balances.map((b, index) => (
        <Box key={b.profile} flexDirection="column">
          <Text bold>{b.profile}</Text>
          {wrap(BALANCE_COLUMNS.map((c, i) => `${c.header} ${cells[index][i + 1]}`).join(' · '), columns - 3).map((part, i) => (
            <Text key={i}>{`  ${part}`}</Text>
          ))}
        </Box>
      ))}
    </Box>
  );
}

/** The key's account balances per asset (GET /sim/accounts/{id}); the real service has no such read for a key. */
function Balances() {
  const account = useConsole((s) => s.account);
  const { columns } = useViewport();
  const controlAvailable = useConsole((s) => s.controlAvailable);
  if (!controlAvailable) return <Text color={theme.muted}>Balances come from the control API, which is hidden against a remote service.</Text>;
  if (!account) return <Text color={theme.muted}>Reading balances…</Text>;
  return (
    <>
      <Text bold>
        Balances <Text color={theme.muted}>· {account.account.label ?? account.account.id} ({account.account.type})</Text>
      </Text>
      {account.balances.length === 0 ? (
        <Text color={theme.muted}>No deposits yet (the control API's POST /sim/accounts/{account.account.id}/deposits adds one).</Text>
      ) : (
        <BalanceTable balances={account.balances} columns={columns} />
      )}
    </>
  );
}

/**
 * Where the console's requests go and with what, so curl can run beside it
 * (the store lock keeps a second simulator off the same store).
 */
function Service() {
  const service = useConsole((s) => s.service);
  const keys = useConsole((s) => s.keys);
  const keyIndex = useConsole((s) => s.keyIndex);
  const choice = keys[keyIndex];
  return (
    <>
      {service ? (
        <Field label="Service">
          <Text wrap="truncate-end">
            {service.url}
            <Text color={theme.muted}>
              {service.isEmbedded ? ' (embedded)' : ' (remote)'}
              {service.isEmbedded && !service.controlToken ? ' · /sim needs no token' : ''}
            </Text>
            {service.isEmbedded && service.controlToken ? <Text color={theme.accent}> · x-understudy-control-token: {service.controlToken}</Text> : null}
          </Text>
        </Field>
      ) : null}
      {choice ? (
        <Field label="Secret">
          <Text wrap="truncate-end">
            {choice.secret} <Text color={theme.muted}>(Bearer)</Text>
          </Text>
        </Field>
      ) : null}
      {keys.length > 1 ? (
        <Field label="Keys">
          <Text wrap="truncate-end">
            {keyIndex + 1} of {keys.length} <Text color={theme.muted}>· k next: {keys.map((k) => k.profile).join(' ')}</Text>
          </Text>
        </Field>
      ) : null}
    </>
  );
}

/** In --url mode: the drift check (docs/drift.md) offered against the service, then its summary. */
function DriftOffer() {
  const service = useConsole((s) => s.service);
  const drift = useConsole((s) => s.drift);
  if (!service || service.isEmbedded) return null;
  const lines = drift.phase === 'idle' ? ['D: is this service still what the simulator rehearses? A drift check of free requests.'] : drift.lines;
  return (
    <Box marginTop={1} flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i} color={drift.phase === 'idle' ? theme.muted : undefined}>
          {line}
        </Text>
      ))}
    </Box>
  );
}

/** Home: the key in use (spec 2.3) and, with the control API, its account's balances. */
export function HomeScreen() {
  const key = useConsole((s) => s.key);
  const now = useConsole((s) => s.clock?.now);
  useCommands('home');

  if (!key) return <Text color={theme.muted}>Reading the key…</Text>;
  return (
    <Box flexDirection="column">
      <Box>
        <Text bold>Key </Text>
        <Text>{key.name ?? '(unnamed)'} </Text>
        <Text color={theme.muted}>
          {key.prefix ?? ''}…{key.last4 ?? ''}{' '}
        </Text>
        <StatusBadge status={key.status} />
      </Box>
      <Field label="Asset">
        <Text>
          {key.profile} <Text color={theme.muted}>{key.assetId ?? ''}</Text>
        </Text>
      </Field>
      <Field label="Scopes">
        <Text>{key.scopes.join(' ')}</Text>
      </Field>
      <Field label="Expires">
        <Text>{expiryText(key.expiresAt, now)}</Text>
      </Field>
      <Field label="Usage">
        <Text>
          {key.rateLimitPerMinute ?? '?'}/min limit · {key.requestsLast24h ?? '?'} requests in 24 h · listings {key.listingIds ? key.listingIds.length : 'all'}
        </Text>
      </Field>
      <Field label="Spend">
        <SpendBar usedAtomic={key.spendUsedAtomic} limitAtomic={key.spendLimitAtomic} profile={key.profile} />
      </Field>
      <Field label="Remaining">
        <Amount atomic={key.remainingSpendAtomic} profile={key.profile} />
      </Field>
      <Service />
      <DriftOffer />
      <Box marginTop={1} flexDirection="column">
        <Balances />
      </Box>
    </Box>
  );
}
