import type { AgentDetail, ApiKey, CreateQuoteBody, ResultPolicy } from '../client/index.ts';

/**
 * The quote builder's form, generated from an agent's detail (spec 2.5
 * inputFields and resultPolicies) and the key (spec 4.3: the asset for
 * Solana keys). Pure data: the store keeps the rows, the screen draws them,
 * and `quoteBody` turns them into the request body.
 *
 * Spec 4.3 input shapes:
 * - token research: { chain, address, scope?, snapshotBlock? };
 * - research workflow: { workflow: 'service.workflow.v1', chain, values: { <inputFields> } };
 * - Solana transaction inspection and every other agent: their named fields.
 */
export const WORKFLOW_ID = 'service.workflow.v1';

export type RowTarget = 'input' | 'values' | 'workflow' | 'policy' | 'asset';

export interface QuoteFormRow {
  /** The input field's name; the workflow, policy and asset rows use `workflow`, `resultPolicy`, `assetId`. */
  name: string;
  label: string;
  target: RowTarget;
  /** text rows are typed; choice rows cycle through `choices`; fixed rows cannot change. */
  kind: 'text' | 'choice' | 'fixed';
  /** For choice rows. '' stands for "omitted" on optional rows. */
  choices: string[];
  required: boolean;
  description: string;
  pattern?: string;
  maxLength?: number;
  /** '' means the field is omitted from the request. */
  value: string;
}

/** Item fields of inputFields are "not shown" by the spec: read what is there, defensively. */
interface FieldShape {
  name: string;
  label: string;
  description: string;
  required: boolean;
  enum?: string[];
  pattern?: string;
  maxLength?: number;
}

function readField(raw: Record<string, unknown>): FieldShape | null {
  const name = typeof raw.name === 'string' ? raw.name : typeof raw.id === 'string' ? raw.id : null;
  if (!name) return null;
  return {
    name,
    label: typeof raw.label === 'string' ? raw.label : name,
    description: typeof raw.description === 'string' ? raw.description : '',
    required: raw.required === true,
    enum: Array.isArray(raw.enum) ? raw.enum.map(String) : undefined,
    pattern: typeof raw.pattern === 'string' ? raw.pattern : undefined,
    maxLength: typeof raw.maxLength === 'number' ? raw.maxLength : undefined,
  };
}

/**
 * Demo values, so that a quote is one key away: each is valid for its field's
 * pattern and none ends in a magic suffix (docs/magic-inputs.md), so the run
 * follows the listing's default behaviour. Typing a value that ends in, say,
 * `fa11` rehearses a failure instead.
 */
const DEMO_BY_NAME: Record<string, string> = {
  address: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
  protocol: 'Example Lending Protocol',
  question: 'Who can upgrade or pause the core contracts?',
  typedData: '{"types":{},"primaryType":"Mail","domain":{},"message":{}}',
  payloadBase64: 'AQABAgMEBQYHCAkKCwwNDg8Q',
  proposalId: '42',
  thresholdBps: '250',
};
const DEMO_EVM_ADDRESS = '0x6B175474E89094C44Da98b954EedeAC495271d0F';
const DEMO_EVM_TX = `0x${'5c'.repeat(31)}12`;
const DEMO_SOLANA_ADDRESS = 'So11111111111111111111111111111111111111112';
const DEMO_SOLANA_SIGNATURE = '5'.repeat(40) + 'j'.repeat(40) + 'Kq';

function demoValue(field: FieldShape): string {
  if (field.enum?.length) return field.required ? field.enum[0] : '';
  if (!field.required) return '';
  if (DEMO_BY_NAME[field.name]) return DEMO_BY_NAME[field.name];
  const pattern = field.pattern ?? '';
  if (pattern.includes('{40}')) return DEMO_EVM_ADDRESS;
  if (pattern.includes('{64}')) return DEMO_EVM_TX;
  if (pattern.includes('{32,44}')) return DEMO_SOLANA_ADDRESS;
  if (pattern.includes('{64,88}')) return DEMO_SOLANA_SIGNATURE;
  if (pattern.startsWith('^(0|[1-9]')) return '1';
  if (pattern.includes('A-Za-z0-9+/')) return DEMO_BY_NAME.payloadBase64;
  return 'example';
}

function rowOf(field: FieldShape, target: RowTarget): QuoteFormRow {
  const choices = field.enum ? [...(field.required ? [] : ['']), ...field.enum] : [];
  return {
    name: field.name,
    label: field.label,
    target,
    kind: field.enum ? 'choice' : 'text',
    choices,
    required: field.required,
    description: field.description,
    pattern: field.pattern,
    maxLength: field.maxLength,
    value: demoValue(field),
  };
}

/** The result policies the agent offers (spec 3.4), the default first. */
export function offeredPolicies(agent: AgentDetail): string[] {
  const policies = agent.resultPolicies
    .map((p) => ({ name: typeof p.policy === 'string' ? p.policy : typeof p.id === 'string' ? p.id : null, isDefault: p.isDefault === true }))
    .filter((p): p is { name: string; isDefault: boolean } => p.name !== null);
  policies.sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  const names = policies.map((p) => p.name);
  return names.length ? names : ['complete_only'];
}

/** The rows of the form for this agent and key, prefilled with demo values. */
export function buildQuoteForm(agent: AgentDetail, key: Pick<ApiKey, 'profile' | 'assetId'> | null): QuoteFormRow[] {
  const fields = agent.inputFields.map(readField).filter((f): f is FieldShape => f !== null);
  const rows: QuoteFormRow[] = [];
  const kind = typeof agent.agentKind === 'string' ? agent.agentKind : 'named_fields';
  if (kind === 'research_workflow') {
    rows.push({ name: 'workflow', label: 'Workflow', target: 'workflow', kind: 'fixed', choices: [], required: true, description: 'Fixed by spec 4.3 for research workflows.', value: WORKFLOW_ID });
    const chains = agent.chains ?? [];
    rows.push({ name: 'chain', label: 'Chain', target: 'workflow', kind: 'choice', choices: chains, required: true, description: 'One of the chains the workflow runs on.', value: chains[0] ?? '' });
    for (const field of fields) rows.push(rowOf(field, 'values'));
  } else {
    for (const field of fields) rows.push(rowOf(field, 'input'));
  }
  const policies = offeredPolicies(agent);
  rows.push({
    name: 'resultPolicy',
    label: 'Result policy',
    target: 'policy',
    kind: policies.length > 1 ? 'choice' : 'fixed',
    choices: policies,
    required: false,
    description: 'What the run must deliver to be charged (spec 3.4); fixed in the quote.',
    value: policies[0],
  });
  // Spec 4.3: only the Solana rail takes assetId, and only the key's own asset is allowed.
  if (key && (key.profile === 'solana_sol' || key.profile === 'solana_usdc')) {
    const assets = agent.offers.filter((o) => o.profile === 'solana_sol' || o.profile === 'solana_usdc').map((o) => (typeof o.assetId === 'string' ? o.assetId : null)).filter((a): a is string => a !== null);
    const own = key.assetId && !assets.includes(key.assetId) ? [key.assetId] : [];
    rows.push({
      name: 'assetId',
      label: 'Asset',
      target: 'asset',
      kind: 'choice',
      choices: ['', ...own, ...assets],
      required: false,
      description: "Solana rail only: the key's own asset (SOL when omitted on a listing that takes both).",
      value: key.assetId ?? '',
    });
  }
  return rows;
}

/** The request body of POST /v1/{rail}/quotes for the form's values. Omitted ('') fields are left out. */
export function quoteBody(listingId: string, rows: QuoteFormRow[]): CreateQuoteBody {
  const input: Record<string, unknown> = {};
  const values: Record<string, string> = {};
  let isWorkflow = false;
  let resultPolicy: string | undefined;
  let assetId: string | undefined;
  for (const row of rows) {
    if (row.value === '' && row.kind !== 'fixed') continue;
    if (row.target === 'input') input[row.name] = row.value;
    else if (row.target === 'values') values[row.name] = row.value;
    else if (row.target === 'workflow') {
      isWorkflow = true;
      input[row.name] = row.value;
    } else if (row.target === 'policy') resultPolicy = row.value;
    else if (row.target === 'asset') assetId = row.value;
  }
  if (isWorkflow) input.values = values;
  return { listingId, input, ...(resultPolicy ? { resultPolicy: resultPolicy as ResultPolicy } : {}), ...(assetId ? { assetId } : {}) };
}

/** A value the field would refuse, said before sending (the service stays the judge). */
export function rowProblem(row: QuoteFormRow): string | null {
  if (row.value === '') return row.required ? 'required' : null;
  if (row.maxLength !== undefined && row.value.length > row.maxLength) return `at most ${row.maxLength} characters`;
  if (row.pattern) {
    try {
      if (!new RegExp(row.pattern).test(row.value)) return `does not match ${row.pattern}`;
    } catch {
      return null;
    }
  }
  return null;
}
