import type { AgentDetail } from '../../client/index.ts';
import { formatProfileAmount } from '../amount.ts';
import { wrap } from '../text.ts';

export interface DetailLine {
  text: string;
  tone?: 'title' | 'heading' | 'muted';
  /** One of the lines ink-table draws for a static table (its `row`-th from the top); `text` is then empty. */
  table?: { of: StaticTable; row: number };
}

/** A table where no row is selected, drawn by ink-table: its columns (heading = key) and its rows of cells. */
export interface StaticTable {
  columns: Array<{ key: string; align?: 'left' | 'right' }>;
  rows: Array<Record<string, string>>;
}

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** Item fields of inputFields and resultPolicies are "not shown" by the spec: read what is there, defensively. */
function describeInputField(field: Record<string, unknown>): string {
  const name = str(field.name ?? field.id ?? field.label) || JSON.stringify(field);
  const required = field.required === true ? ' (required)' : '';
  const choices = Array.isArray(field.enum) ? ` One of: ${field.enum.join(', ')}.` : '';
  return `${name}${required}: ${str(field.description ?? field.label)}${choices}`;
}

function describeResultPolicy(policy: Record<string, unknown>): string {
  const name = str(policy.policy ?? policy.id) || 'policy';
  const isDefault = policy.isDefault === true ? ' (default)' : '';
  const contract = str(policy.resultContract ?? policy.contract);
  return `${name}${isDefault}: ${contract || JSON.stringify(policy)}`;
}

/**
 * The agent detail (spec 2.5) as lines already wrapped to `width`, so the
 * screen can scroll by line and knows how far it can go.
 */
export function agentDetailLines(agent: AgentDetail, width: number): DetailLine[] {
  const lines: DetailLine[] = [];
  const paragraph = (text: string, tone?: DetailLine['tone']) => wrap(text, width).forEach((line) => lines.push({ text: line, tone }));
  const bullet = (text: string) => wrap(text, width - 2).forEach((line, i) => lines.push({ text: `${i === 0 ? '• ' : '  '}${line}` }));
  const section = (title: string, items: string[]) => {
    lines.push({ text: '' }, { text: title, tone: 'heading' });
    if (items.length === 0) lines.push({ text: 'none', tone: 'muted' });
    items.forEach(bullet);
  };

  lines.push({ text: agent.name, tone: 'title' });
  paragraph(agent.listingId, 'muted');
  if (agent.description) paragraph(agent.description);
  const facts = [agent.chains?.join(', '), agent.category, agent.ownership, agent.review, agent.priceStructure].filter(Boolean).map(str);
  if (facts.length) paragraph(facts.join(' · '), 'muted');
  if (agent.availability) {
    paragraph(agent.availability.available ? 'Available' : `Unavailable: ${agent.availability.reasons.join('; ')}`, agent.availability.available ? undefined : 'heading');
  }

  section(
    'Offers (maximum debit per run)',
    agent.offers.map((o) => `${o.profile}: ${o.pricing?.maximumBuyerDebitAtomic ? formatProfileAmount(o.pricing.maximumBuyerDebitAtomic, o.profile) : 'no price'}${o.enabled ? '' : ' (disabled)'}`),
  );
  section('Permissions', agent.permissions.map((p) => `${p.label} (${p.id}): ${p.detail}`));
  section('Limits', [
    `${agent.limits.maximumRpcCalls} blockchain reads · ${agent.limits.maximumDurationMs / 1000} s · ${agent.limits.maximumOutputBytes} bytes of output`,
  ]);
  section('Input fields', agent.inputFields.map(describeInputField));
  section('Result policies', agent.resultPolicies.map(describeResultPolicy));
  section('Refund policy', agent.refundPolicy);
  section('Limitations', agent.limitations);
  return lines;
}
