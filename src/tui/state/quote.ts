import type { DisplayError } from './types.ts';
import { railOf, type AgentDetail, type Client, type RetryObserver, type Quote } from '../../client/index.ts';
import { formatProfileAmount } from '../amount.ts';
import { buildQuoteForm, quoteBody, type QuoteFormRow } from '../quote-form.ts';
import { clampScroll } from './scroll.ts';
import { toDisplayError, type SliceContext } from './call.ts';

/** A refused create or accept, explained (spec 7). */
export interface Refusal extends DisplayError {
  action: 'quote' | 'accept';
}

export interface QuoteState {
  listingId: string | null;
  agent: AgentDetail | null;
  rows: QuoteFormRow[];
  row: number;
  /** form: editing inputs; quote: the quote's fields; confirm: accepting it. */
  mode: 'form' | 'quote' | 'confirm';
  quote: Quote | null;
  /** The idempotency key the confirmation will send (spec 4.4); kept for a retry of the same acceptance. */
  idempotencyKey: string | null;
  refusal: Refusal | null;
  isBusy: boolean;
  scroll: number;
}

export interface QuoteActions {
  quoteAgent(): Promise<void>;
  quoteSelectedAgent(): Promise<void>;
  openQuoteForm(): void;
  moveQuoteRow(delta: number): void;
  cycleQuoteChoice(delta: number): void;
  editQuoteRow(): void;
  clearQuoteRow(): void;
  requestQuote(): Promise<void>;
  startAccept(): void;
  cancelAccept(): void;
  confirmAccept(): Promise<void>;
  scrollQuote(delta: number, maxScroll: number): void;
  backFromQuote(): void;
  setQuoteRowValue(row: number, value: string): void;
}

declare module './console-state.ts' {
  interface ConsoleData {
    quote: QuoteState;
  }
  interface ConsoleActions {
    quote: QuoteActions;
  }
}

export const emptyQuote = (): QuoteState => ({ listingId: null, agent: null, rows: [], row: 0, mode: 'form', quote: null, idempotencyKey: null, refusal: null, isBusy: false, scroll: 0 });

/** Spec 4.4: 8 to 128 characters of A-Z a-z 0-9 _ -. */
export const defaultIdempotencyKey = () => `console-${globalThis.crypto.randomUUID()}`;

/**
 * The quote builder (spec 4.3) and acceptance (spec 4.4, 4.5). Quote creation
 * and acceptance refusals are shown in the builder, explained, rather than on
 * the error line: they are the point of a rehearsal.
 */
export function quoteActions(
  { set, get, loading }: SliceContext,
  client: Client,
  newIdempotencyKey: () => string,
  // The run limits answer 429 with Retry-After (spec 8), which the client waits out: the console shows that wait.
  showingWaits: <T>(what: string, call: (observe: RetryObserver) => Promise<T>) => Promise<T>,
): QuoteActions {
  const patch = (partial: Partial<QuoteState>) => set((s) => ({ quote: { ...s.quote, ...partial } }));

  async function keyProfile(): Promise<string | null> {
    if (!get().key) await get().actions.shell.loadKey();
    return get().key?.profile ?? null;
  }

  async function openBuilder(agent: AgentDetail) {
    await keyProfile();
    set({ screen: 'quote', isHelpOpen: false, error: null, notice: null, quote: { ...emptyQuote(), listingId: agent.listingId, agent, rows: buildQuoteForm(agent, get().key) } });
  }

  async function requestQuote() {
    const { listingId, rows, isBusy } = get().quote;
    if (!listingId || isBusy) return;
    const profile = await keyProfile();
    if (!profile) return;
    patch({ isBusy: true, refusal: null });
    set({ error: null, notice: null });
    try {
      // Spec 4.3: never retried; a lost answer means creating another quote.
      const quote = await client.v1.createQuote(railOf(profile), quoteBody(listingId, rows));
      patch({ quote, mode: 'quote', isBusy: false, idempotencyKey: null, scroll: 0 });
    } catch (error) {
      patch({ isBusy: false, mode: 'form', refusal: { action: 'quote', ...toDisplayError(error) } });
    }
  }

  return {
    quoteAgent: () =>
      loading(async () => {
        const agent = get().agent.detail;
        if (!agent) return;
        await openBuilder(agent);
        await requestQuote();
      }),

    quoteSelectedAgent: () => loading(async () => {
      const { page, selected } = get().catalog;
      const summary = page?.agents[selected];
      if (!summary) return;
      set({ error: null });
      try {
        const agent = await client.v1.getAgent(summary.listingId);
        set({ agent: { listingId: agent.listingId, detail: agent, isLoading: false, scroll: 0 } });
        await openBuilder(agent);
        await requestQuote();
      } catch (error) {
        set({ error: toDisplayError(error) });
      }
    }),

    openQuoteForm() {
      patch({ mode: 'form' });
    },

    moveQuoteRow(delta) {
      const { rows, row } = get().quote;
      if (rows.length) patch({ row: (row + delta + rows.length) % rows.length });
    },

    cycleQuoteChoice(delta) {
      const { rows, row } = get().quote;
      const current = rows[row];
      if (!current || current.kind !== 'choice' || current.choices.length === 0) return;
      const index = current.choices.indexOf(current.value);
      const value = current.choices[(index + delta + current.choices.length) % current.choices.length];
      patch({ rows: rows.map((r, i) => (i === row ? { ...r, value } : r)) });
    },

    editQuoteRow() {
      const { rows, row } = get().quote;
      const current = rows[row];
      if (!current) return;
      if (current.kind === 'choice') return get().actions.quote.cycleQuoteChoice(1);
      if (current.kind === 'fixed') return;
      set({ prompt: { title: current.label, value: current.value, target: { kind: 'quote-field', row } } });
    },

    setQuoteRowValue(row, value) {
      patch({ rows: get().quote.rows.map((r, i) => (i === row ? { ...r, value } : r)) });
    },

    clearQuoteRow() {
      const { rows, row } = get().quote;
      const current = rows[row];
      if (!current || current.required || current.kind === 'fixed') return;
      patch({ rows: rows.map((r, i) => (i === row ? { ...r, value: '' } : r)) });
    },

    requestQuote,

    startAccept() {
      const { quote, idempotencyKey } = get().quote;
      if (!quote) return;
      // Spec 4.4: a repeat with the same key replays, so one key per quote makes retrying safe.
      patch({ mode: 'confirm', refusal: null, idempotencyKey: idempotencyKey ?? newIdempotencyKey() });
    },

    cancelAccept() {
      patch({ mode: 'quote' });
    },

    async confirmAccept() {
      const { quote, idempotencyKey, isBusy, agent } = get().quote;
      if (!quote || !idempotencyKey || isBusy) return;
      const profile = await keyProfile();
      if (!profile) return;
      patch({ isBusy: true });
      set({ error: null, notice: null });
      try {
        const acceptance = await showingWaits('the acceptance', (onRetryWait) =>
          client.v1.acceptQuote(railOf(profile), quote.id, { acceptedContractHash: quote.contractHash, idempotencyKey }, { onRetryWait }),
        );
        patch({ isBusy: false, mode: 'quote' });
        const run = acceptance.run;
        set((s) => ({
          run: {
            ...s.run,
            accepted: [{ id: run.id, status: run.status, createdAt: run.createdAt, listingId: agent?.listingId, agentName: agent?.name, maximumRpcCalls: agent?.limits.maximumRpcCalls }, ...s.run.accepted.filter((r) => r.id !== run.id)],
          },
          notice: `accepted: ${formatProfileAmount(acceptance.reservation.maximumAtomic, profile)} reserved (reservation ${acceptance.reservation.id.slice(0, 8)}…)`,
        }));
        await get().actions.run.openRun(run.id);
      } catch (error) {
        patch({ isBusy: false, mode: 'quote', refusal: { action: 'accept', ...toDisplayError(error) } });
      }
    },

    scrollQuote(delta, maxScroll) {
      set((s) => ({ quote: { ...s.quote, scroll: clampScroll(s.quote.scroll + delta, maxScroll) } }));
    },

    backFromQuote() {
      const { mode, quote } = get().quote;
      if (mode === 'confirm') return patch({ mode: 'quote' });
      if (mode === 'form' && quote) return patch({ mode: 'quote' });
      set({ screen: get().agent.detail ? 'agent' : 'catalog' });
    },
  };
}
