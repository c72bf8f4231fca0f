import type { Billing, MonitorDetail, Quote, Receipt, RunExport } from '../../client/index.ts';
import { formatProfileAmount, hasUnits } from '../amount.ts';
import type { StepView } from '../scenario-stepper.ts';
import { wrap } from '../text.ts';
import type { DetailLine } from './agent-lines.ts';
import { amountTableLines } from './amount-table.ts';

/**
 * Resources as lines already wrapped to a width, so screens can scroll them
 * by line. Amount fields (names ending in Atomic, spec 2.1) are shown in the
 * key's asset; fields the spec leaves "not shown" are listed as they come.
 */

/** An amount field's value as every money view writes it: units and, with `exact` (the default here), the atomic string beside them. */
export const amountIn = (atomic: unknown, profile: string | null | undefined, exact = true) =>
  typeof atomic === 'string' ? formatProfileAmount(atomic, profile, { exact }) : String(atomic ?? '—');

/** '2026-01-01T00:01:43.500Z' → '00:01:43'. */
export const clockTime = (iso: unknown) => (typeof iso === 'string' ? (iso.match(/T(\d\d:\d\d:\d\d)/)?.[1] ?? iso) : '—');

/** Seconds as m:ss (or h:mm:ss). */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

class LineBuilder {
  readonly lines: DetailLine[] = [];
  constructor(readonly width: number) {}

  /** Wrapped to the width; leading spaces (nesting) are kept on every line. */
  text(text: string, tone?: DetailLine['tone']) {
    const pad = /^ */.exec(text)?.[0] ?? '';
    for (const line of wrap(text.slice(pad.length), Math.max(10, this.width - pad.length))) this.lines.push({ text: pad + line, tone });
  }

  /** A label column and a value wrapped beside it. */
  field(label: string, value: string, labelWidth = 18) {
    const valueWidth = Math.max(10, this.width - labelWidth);
    wrap(value, valueWidth).forEach((line, i) => this.lines.push({ text: `${(i === 0 ? label : '').padEnd(labelWidth)}${line}` }));
  }

  heading(text: string) {
    this.lines.push({ text: '' }, { text, tone: 'heading' });
  }

  /** Any JSON value as indented `key: value` lines; amounts in the asset. */
  json(value: unknown, profile: string | null, indent = 0, depth = 0) {
    const pad = ' '.repeat(indent);
    if (value === null || typeof value !== 'object') {
      this.text(`${pad}${scalar(value)}`);
      return;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) this.text(`${pad}(none)`, 'muted');
      value.forEach((item, i) => {
        if (item !== null && typeof item === 'object' && depth < 4) {
          this.text(`${pad}[${i}]`, 'muted');
          this.json(item, profile, indent + 2, depth + 1);
        } else this.text(`${pad}- ${scalar(item)}`);
      });
      return;
    }
    for (const [name, item] of Object.entries(value)) {
      if (item !== null && typeof item === 'object' && depth < 4) {
        const isEmpty = Array.isArray(item) ? item.length === 0 : Object.keys(item).length === 0;
        if (isEmpty) this.text(`${pad}${name}: ${Array.isArray(item) ? '[]' : '{}'}`);
        else {
          this.text(`${pad}${name}:`);
          this.json(item, profile, indent + 2, depth + 1);
        }
      } else if (item !== null && typeof item === 'object') this.text(`${pad}${name}: ${JSON.stringify(item)}`);
      // A converted value loses the Atomic suffix: that name belongs to the atomic string, which stays beside it.
      else if (name.endsWith('Atomic') && hasUnits(item, profile)) this.text(`${pad}${name.slice(0, -'Atomic'.length)}: ${amountIn(item, profile)}`);
      else this.text(`${pad}${name}: ${scalar(item)}`);
    }
  }
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '—';
  return JSON.stringify(value);
}

const inputText = (input: unknown) =>
  input && typeof input === 'object'
    ? Object.entries(input)
        .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        .join(' ')
    : '—';

function unitCostsText(unitCosts: Record<string, unknown> | undefined, profile: string | null): string {
  if (!unitCosts) return '—';
  return Object.entries(unitCosts)
    .map(([k, v]) => `${k.replace(/Atomic$/, '')} ${k.endsWith('Atomic') ? amountIn(v, profile) : String(v)}`)
    .join(' · ');
}

function modelExecutionText(model: Quote['modelExecution'], profile: string | null): string {
  if (!model) return 'none (no AI-assisted analysis)';
  return Object.entries(model)
    .map(([k, v]) => `${k.replace(/Atomic$/, '')} ${k.endsWith('Atomic') ? amountIn(v, profile) : String(v)}`)
    .join(' · ');
}

/** Every quote field of spec 2.7, the money first. */
export function quoteLines(quote: Quote, profile: string | null, width: number): DetailLine[] {
  const b = new LineBuilder(width);
  const feePercent = quote.feeBps !== undefined ? ` · feeBps ${quote.feeBps} = ${quote.feeBps / 100}%` : '';
  b.field('Maximum debit', amountIn(quote.maximumBuyerDebitAtomic, profile));
  b.field('Creator fee', `${amountIn(quote.grossCreatorFeeAtomic, profile)} · gross`);
  b.field('  platform fee', `${amountIn(quote.platformFeeAtomic, profile)}${feePercent}`);
  b.field('  creator credit', amountIn(quote.creatorCreditAtomic, profile));
  b.field('Max execution', `${amountIn(quote.maxExecutionChargeAtomic, profile)} · cap on reads and AI analysis`);
  b.field('Unit costs', unitCostsText(quote.unitCosts, profile));
  b.field('Model execution', modelExecutionText(quote.modelExecution, profile));
  b.field('Result policy', String(quote.resultPolicy ?? '—'));
  b.field('Result contract', typeof quote.resultContract === 'string' ? quote.resultContract : JSON.stringify(quote.resultContract ?? null));
  b.field('Asset', `${quote.currencyLabel ?? '—'}${quote.asset ? ` · ${quote.asset.namespace}:${quote.asset.cluster}/${quote.asset.kind} · ${quote.asset.decimals} decimals` : ''}`);
  b.field('Input', inputText(quote.input));
  b.field('Agent kind', `${quote.agentKind ?? '—'} · price revision ${quote.priceRevision ?? '—'}`);
  b.field('Quote id', quote.id);
  b.field('Contract hash', quote.contractHash);
  b.field('Expires at', String(quote.expiresAt));
  b.field('Notice', quote.notice ?? '—');
  return b.lines;
}

/** Spec 2.11 billing: the status, the settlement once settled, the reads and what is held. */
export function billingLines(billing: Billing, profile: string | null, width: number): DetailLine[] {
  const b = new LineBuilder(width);
  b.field('Status', billing.status);
  if (billing.settlement) {
    const s = billing.settlement;
    b.field('Outcome', s.outcome);
    const split = [
      { part: 'charged', atomic: s.chargedAtomic },
      { part: '  creator fee', atomic: s.creatorFeeAtomic },
      { part: '  platform fee', atomic: s.platformFeeAtomic },
      { part: '  execution', atomic: s.executionChargeAtomic },
    ];
    const table = amountTableLines(split, profile, b.width);
    if (table) b.lines.push(...table);
    else for (const { part, atomic } of split) b.field(part === 'charged' ? 'Charged' : part, amountIn(atomic, profile));
    if (typeof (s as Record<string, unknown>).settledAt === 'string') b.field('Settled at', String((s as Record<string, unknown>).settledAt));
  } else b.field('Settlement', billing.status === 'reserved' ? 'none yet: the quote maximum is reserved until the run ends' : 'none yet');
  if (billing.pendingReason) b.field('Pending reason', billing.pendingReason);
  if (typeof billing.heldAtomic === 'string') b.field('Held', amountIn(billing.heldAtomic, profile));
  b.field('Reads', `${billing.authorizedRpcCalls ?? '—'} authorized · ${billing.reconciledRpcCalls ?? '—'} confirmed · ${billing.unresolvedRpcCalls ?? '—'} unresolved`);
  const model = billing.modelCost as Record<string, unknown> | null | undefined;
  b.field('Model cost', model ? `${amountIn(model.usedAtomic, profile)} used of ${amountIn(model.capAtomic, profile)}` : 'none');
  b.field('Quote', String(billing.quoteId ?? '—'));
  b.field('Reservation', String(billing.reservationId ?? '—'));
  if (billing.notice) b.field('Notice', billing.notice);
  return b.lines;
}

/** Spec 2.12 receipt: the payment currency first, then everything it holds. */
export function receiptLines(receipt: Receipt, profile: string | null, width: number): DetailLine[] {
  const b = new LineBuilder(width);
  // Spec 2.12 names only the payment currency; a service that omits it must not take the console down.
  const payment = (receipt.payment ?? {}) as Partial<Receipt['payment']>;
  b.field('Paid in', `${payment.currencyLabel ?? '—'} (${payment.assetId ?? '—'})`);
  const rest = Object.fromEntries(Object.entries(receipt).filter(([k]) => k !== 'payment'));
  for (const [name, value] of Object.entries(rest)) {
    b.heading(name);
    if (name === 'feeSplit' && value !== null && typeof value === 'object' && !Array.isArray(value)) feeSplitLines(b, value as Record<string, unknown>, profile);
    else b.json(value, profile, 2);
  }
  return b.lines;
}

/** The receipt's fee split: its amounts as a table when one fits, its other fields (feeBps) as they come. */
function feeSplitLines(b: LineBuilder, split: Record<string, unknown>, profile: string | null) {
  const isAmount = ([name, value]: [string, unknown]) => name.endsWith('Atomic') && typeof value === 'string';
  const amounts = Object.entries(split).filter(isAmount);
  const table = amounts.length > 0 ? amountTableLines(amounts.map(([name, atomic]) => ({ part: name.slice(0, -'Atomic'.length), atomic })), profile, b.width) : null;
  if (!table) {
    b.json(split, profile, 2);
    return;
  }
  b.json(Object.fromEntries(Object.entries(split).filter((entry) => !isAmount(entry))), profile, 2);
  b.lines.push(...table);
}

/** Spec 2.12 export: the artifact, the run, the immutable version and the events. */
export function exportLines(exported: RunExport, artifactId: string | null, bytes: number, profile: string | null, width: number): DetailLine[] {
  const b = new LineBuilder(width);
  b.field('Artifact', artifactId ?? '(no X-Service-Artifact-Id header)');
  const events = exported.events ?? [];
  b.field('Document', `${bytes} bytes of canonical JSON: run, version, ${events.length} events`);
  b.field('Run', `${exported.run.id} · ${exported.run.status} · ${exported.run.rpcUsed ?? 0} reads`);
  const version = exported.version ?? {};
  const versionName = ['name', 'title', 'id', 'versionId'].map((k) => version[k]).find((v) => typeof v === 'string');
  b.field('Version', String(versionName ?? '—'));
  b.field('Events', events.map((e) => e.step).join(' → '));
  if (exported.run.output) {
    b.heading('Report (run.output)');
    b.json(exported.run.output, profile, 2);
  }
  if (exported.run.error) {
    b.heading('Error (run.error)');
    b.json(exported.run.error, profile, 2);
  }
  return b.lines;
}

const list = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? (value as Array<Record<string, unknown>>) : []);

/** Spec 2.13 monitor detail: windows, events, retractions and deliveries. */
export function monitorDetailLines(detail: MonitorDetail, width: number): DetailLine[] {
  const b = new LineBuilder(width);
  const m = detail.monitor;
  b.text(`${m.name ?? '(unnamed)'} · ${m.chain ?? '?'} · ${m.status}${m.statusReason ? ` (${m.statusReason})` : ''}`, 'title');
  b.field('Id', m.id, 12);
  b.field('Budgets', `ticks ${m.ticksUsed ?? 0}/${m.tickBudget ?? '?'} · rpc ${m.rpcUsed ?? 0}/${m.rpcBudget ?? '?'} · ends ${m.endsAt ?? '?'}`, 12);
  const rules = Array.isArray(m.rules) ? (m.rules as Array<Record<string, unknown>>) : [];
  if (rules.length) b.field('Rules', rules.map((r) => `${String(r.id)} ${String(r.type)}`).join(', '), 12);
  const subscriptions = list(detail.subscriptions);
  b.field('Delivery to', `${subscriptions.length} destination${subscriptions.length === 1 ? '' : 's'}${m.webhook ? ` · own webhook ${m.webhook.url}` : ''}`, 12);

  const windows = detail.windows ?? [];
  const events = detail.events ?? [];
  const deliveries = detail.deliveries ?? [];
  b.heading(`Windows (${windows.length}${detail.missedWindows?.length ? `, ${detail.missedWindows.length} missed` : ''})`);
  for (const w of windows.slice(-5)) b.text(`  blocks ${String(w.fromBlock)}–${String(w.toBlock)} · ${String(w.logsMatched ?? 0)} matched · rpc ${String(w.rpcUsed ?? 0)} · ${clockTime(w.scannedAt)}`);
  if (windows.length > 5) b.text(`  … ${windows.length - 5} earlier`, 'muted');

  b.heading(`Events (${events.length})`);
  for (const e of events.slice(0, 8)) {
    const event = e.event as { name?: string } | undefined;
    b.text(`  ${clockTime(e.observedAt)} block ${String(e.blockNumber)} ${String(e.ruleId)} ${event?.name ?? ''} · ${String(e.status ?? '')}`);
  }
  const retracted = detail.retractedEvents ?? [];
  b.heading(`Retractions (${retracted.length})`);
  for (const e of retracted.slice(0, 5)) b.text(`  block ${String(e.blockNumber)} ${String(e.ruleId ?? '')} · retracted ${clockTime(e.retractedAt)}`);

  b.heading(`Deliveries (${deliveries.length})`);
  for (const d of deliveries.slice(0, 8)) {
    const attempts = list(d.attempts);
    const last = attempts[attempts.length - 1];
    b.text(`  ${String(d.id ?? '').slice(0, 8)}… ${String(d.type ?? d.purpose ?? '')} · ${String(d.state ?? '')} · ${attempts.length} attempt${attempts.length === 1 ? '' : 's'}${last ? ` · last ${String(last.outcome)} ${String(last.httpStatus ?? '')}` : ''}`);
  }
  return b.lines;
}

/** One scenario step: what was sent, what came back, the checks, and the balances after it. */
export function scenarioStepLines(step: StepView, width: number): DetailLine[] {
  const b = new LineBuilder(width);
  const failed = step.error !== null || step.checks.some((c) => !c.ok);
  b.text(`Step ${step.index + 1} · ${step.action}${step.name ? ` · ${step.name}` : ''} · ${failed ? 'FAILED' : 'ok'}`, 'title');
  if (step.request) b.field('Request', `${step.request.method} ${step.request.path}${step.request.key ? ` (key ${step.request.key})` : ''}`, 10);
  if (step.status !== null) {
    const error = (step.body as { error?: { code?: string; message?: string } } | null)?.error;
    b.field('Answer', `${step.status}${error ? ` ${error.code}: ${error.message}` : ''}`, 10);
  }
  if (step.error) b.field('Error', step.error, 10);
  for (const check of step.checks) b.text(`${check.ok ? '✓' : '✗'} ${check.what}${check.ok ? '' : `: expected ${JSON.stringify(check.expected)}, got ${JSON.stringify(check.actual)}`}`);
  if (Object.keys(step.saved).length) b.field('Saved', Object.entries(step.saved).map(([k, v]) => `${k}=${String(v)}`).join(' '), 10);
  b.text('Balances after the step (GET /sim/accounts/{id})', 'heading');
  for (const account of step.balances) {
    for (const balance of account.balances) {
      const a = (atomic: string) => formatProfileAmount(atomic, balance.profile);
      b.text(`  ${account.name} ${balance.profile}: avail ${a(balance.availableAtomic)} · resv ${a(balance.reservedAtomic)} · pend ${a(balance.pendingAtomic)} · chg ${a(balance.chargedAtomic)}`);
    }
  }
  if (step.request?.body !== undefined) {
    b.heading('Request body');
    b.json(step.request.body, null, 2);
  }
  if (step.status !== null && step.body !== undefined && step.body !== null) {
    b.heading('Answer body');
    b.json(step.body, null, 2);
  }
  return b.lines;
}
