import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { railOf } from '../../client/index.ts';
import { Lines, maxScrollOf } from '../components/lines.tsx';
import { rowProblem, type QuoteFormRow } from '../quote-form.ts';
import { useConsole } from '../state/context.tsx';
import type { Refusal } from '../state/quote.ts';
import { fit, wrap } from '../text.ts';
import { theme } from '../theme.ts';
import { useCommands } from '../use-commands.ts';
import { useViewport } from '../viewport.ts';
import { amountIn, formatCountdown, quoteLines } from './detail-lines.ts';

/** The simulated time when there is a clock, else wall time (remote service). */
export function useNowIso(): string {
  const clockNow = useConsole((s) => s.clock?.now);
  const wallNow = useConsole((s) => s.wallNow);
  return clockNow ?? wallNow;
}

/** Spec 2.7: a quote expires 240 seconds after creation; counted on the simulated clock. */
function Countdown({ expiresAt }: { expiresAt: string }) {
  const now = useNowIso();
  const left = Math.floor((Date.parse(expiresAt) - Date.parse(now)) / 1000);
  if (Number.isNaN(left)) return <Text color={theme.muted}>expires {expiresAt}</Text>;
  const at = expiresAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  if (left <= 0) {
    return (
      <Text color={theme.error} bold>
        EXPIRED {formatCountdown(-left)} ago <Text color={theme.muted}>({at}) · press q for a new quote</Text>
      </Text>
    );
  }
  return (
    <Text>
      <Text color={left <= 30 ? theme.warn : theme.ok} bold>
        expires in {formatCountdown(left)}
      </Text>
      <Text color={theme.muted}> ({at})</Text>
    </Text>
  );
}

/** A refused quote or acceptance: code, message, what it means (spec 7). */
function RefusalPanel({ refusal }: { refusal: Refusal }) {
  return (
    <Box flexDirection="column">
      <Text color={theme.error} wrap="truncate-end">
        ✖ {refusal.action === 'quote' ? 'Quote refused' : 'Acceptance refused'}: {refusal.code}
        {refusal.status ? ` (${refusal.status})` : ''}
      </Text>
      <Text color={theme.error}>{refusal.message}</Text>
      {refusal.meaning ? <Text color={theme.warn}>→ {refusal.meaning}</Text> : null}
    </Box>
  );
}

function rowValue(row: QuoteFormRow): string {
  if (row.value === '') return row.required ? '(required)' : '(omitted)';
  return row.value;
}

function FormView({ columns }: { columns: number }) {
  const { rows, row: selected, refusal, isBusy } = useConsole((s) => s.quote);
  const current = rows[selected];
  const problem = current ? rowProblem(current) : null;
  const labelWidth = 18;
  return (
    <Box flexDirection="column">
      {rows.map((row, index) => {
        const isSelected = index === selected;
        const mark = row.required ? '*' : ' ';
        const hint = row.kind === 'choice' ? `←→ ${Math.max(0, row.choices.indexOf(row.value)) + 1}/${row.choices.length}` : row.kind === 'fixed' ? 'fixed' : '⏎ type';
        const valueWidth = Math.max(10, columns - labelWidth - 14);
        return (
          <Text key={row.name + row.target}>
            <Text color={theme.accent}>{isSelected ? '› ' : '  '}</Text>
            <Text bold={isSelected}>{fit(`${row.label}${mark}`, labelWidth - 2)}</Text>
            <Text color={row.value === '' ? theme.muted : undefined} inverse={isSelected}>
              {fit(rowValue(row), valueWidth)}
            </Text>
            <Text color={theme.muted}> {hint}</Text>
          </Text>
        );
      })}
      <Text color={theme.muted} wrap="truncate-end">
        {current ? `${current.name}: ${current.description}` : ' '}
      </Text>
      {problem ? <Text color={theme.warn}>⚠ {current?.label} {problem}</Text> : null}
      <Text color={theme.muted} wrap="truncate-end">
        * required · a value of 16+ characters ending in fa11, dead, 0a0a, c0de or 5105 rehearses another ending
      </Text>
      {isBusy ? <Text color={theme.muted}>Asking for a quote…</Text> : null}
      {refusal ? <RefusalPanel refusal={refusal} /> : null}
    </Box>
  );
}

function ConfirmPanel({ profile }: { profile: string | null }) {
  const { quote, idempotencyKey, isBusy } = useConsole((s) => s.quote);
  if (!quote) return null;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.warn} paddingX={1}>
      <Text bold color={theme.warn}>
        Accept this quote? It reserves up to {amountIn(quote.maximumBuyerDebitAtomic, profile, false)} and queues a run.
      </Text>
      <Text color={theme.muted}>acceptedContractHash (the quote's contractHash, spec 4.4)</Text>
      <Text>{quote.contractHash}</Text>
      <Text>
        <Text color={theme.muted}>idempotencyKey       </Text>
        {idempotencyKey}
      </Text>
      <Text color={theme.muted}>{isBusy ? 'Accepting…' : 'y or ⏎ accept · n or esc keep the quote without accepting'}</Text>
    </Box>
  );
}

/** The quote builder: a form generated from the agent's inputs (spec 4.3), the quote (2.7), acceptance (4.4). */
export function QuoteScreen() {
  const quoteState = useConsole((s) => s.quote);
  const profile = useConsole((s) => s.key?.profile ?? null);
  const { columns, bodyRows } = useViewport();
  const { agent, mode, quote, refusal, scroll } = quoteState;
  const lines = useMemo(() => (quote ? quoteLines(quote, profile, columns - 2) : []), [quote, profile, columns]);
  // Title, countdown, the position line, and room for a refusal (its lines as wrapped) or the confirmation (five lines in a border) below the lines.
  const refusalRows = refusal ? 1 + wrap(refusal.message, columns).length + (refusal.meaning ? wrap(`→ ${refusal.meaning}`, columns).length : 0) : 0;
  const reserved = 2 + refusalRows + (mode === 'confirm' ? 7 : 0) + 1;
  const viewport = Math.max(3, bodyRows - reserved);
  const maxScroll = maxScrollOf(lines, viewport);
  useCommands('quote-form');
  useCommands('quote', { view: { maxScroll, pageRows: viewport - 1 } });
  useCommands('quote-confirm');

  if (!agent) return <Text color={theme.muted}>No agent chosen: open one in the catalog (2) and press q.</Text>;
  const rail = profile ? railOf(profile) : '?';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{mode === 'form' ? 'Quote builder' : 'Quote'} · </Text>
        <Text color={theme.accent}>{agent.name}</Text>
        <Text color={theme.muted}>
          {' '}
          · {String(agent.agentKind ?? 'agent')} · POST /v1/{rail}/quotes
        </Text>
      </Text>
      {mode === 'form' || !quote ? (
        <FormView columns={columns} />
      ) : (
        <>
          <Countdown expiresAt={quote.expiresAt} />
          <Lines lines={lines} rows={viewport} scroll={scroll} />
          {mode === 'confirm' ? <ConfirmPanel profile={profile} /> : null}
          {refusal ? <RefusalPanel refusal={refusal} /> : null}
        </>
      )}
    </Box>
  );
}
