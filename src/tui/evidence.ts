import { isClientError, railOf, type Client, type SimLedgerEntry } from '../client/index.ts';
import { formatProfileAmount } from './amount.ts';
import { caseParts } from '../case/saved-evidence.ts';
import type { ConsoleService, Environment } from './state/types.ts';

/**
 * One run's evidence for a support ticket: what the key (and, on a simulator,
 * the control API) can read about it, as JSON files exactly as answered, and
 * a summary.md a person reads first. The files are written by the process
 * that wires the console (it has the file system); this only reads and writes
 * text.
 */

/** Writes the files into a folder named `folder`; resolves with the folder's path. */
export type EvidenceSaver = (folder: string, files: Record<string, string>) => Promise<string>;

export interface EvidenceRequest {
  client: Client;
  runId: string;
  profile: string;
  keyName: string;
  /** The account's ledger is read through the control API; null without it. */
  ledgerAccountId: string | null;
  service: ConsoleService | null;
  environment: Environment | null;
  /** The simulated clock when there is one, else wall time. */
  nowIso: string;
}

type Part<T> = { ok: true; value: T; route: string } | { ok: false; route: string; refusal: string };

async function read<T>(route: string, operation: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await operation(), route };
  } catch (error) {
    if (!isClientError(error)) throw error;
    const status = 'status' in error && error.status !== null ? `${error.status} ` : '';
    return { ok: false, route, refusal: `${status}${error.code}: ${error.message}` };
  }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
/** Both forms, as a support person compares them with curl: human units, and the exact atomic string. */
const money = (atomic: string | undefined, profile: string) => (atomic === undefined ? '—' : `${formatProfileAmount(atomic, profile)} (${atomic} atomic)`);
const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

export async function collectEvidence(request: EvidenceRequest): Promise<Record<string, string>> {
  const { client, runId, profile } = request;
  const rail = railOf(profile);
  const id = encodeURIComponent(runId);
  const [run, billing, receipt, exported, ledger] = await Promise.all([
    read(`GET /v1/runs/${id}`, () => client.v1.getRun(runId)),
    read(`GET /v1/${rail}/runs/${id}/billing`, () => client.v1.billing(rail, runId)),
    read(`GET /v1/runs/${id}/receipt`, () => client.v1.receipt(runId)),
    read(`GET /v1/runs/${id}/export`, () => client.v1.exportRun(runId)),
    request.ledgerAccountId === null
      ? null
      : read(`GET /sim/accounts/${request.ledgerAccountId}/ledger (lines of this run)`, async () => {
          const entries = await client.sim.ledger(request.ledgerAccountId!);
          return entries.filter((e) => e.runId === runId);
        }),
  ]);

  const files: Record<string, string> = {};
  const parts: Array<[string, Part<unknown> | null]> = [
    ['run.json', run],
    ['billing.json', billing],
    ['receipt.json', receipt],
    // Spec 2.12: the canonical export, with the artifact id its header named.
    ['export.json', exported.ok ? { ...exported, value: { artifactId: exported.value.artifactId, export: exported.value.export } } : exported],
    ['ledger.json', ledger],
  ];
  for (const [name, part] of parts) if (part?.ok) files[name] = json(part.value);
  // The support case kit's parts: the reproducing scenario and the money waterfall (docs/support.md).
  const kit = caseParts(files, runId, profile);
  files['summary.md'] = `${summary(request, { run, billing, ledger }, parts)}\n${kit.summary}`;
  if (kit.scenario) files['scenario.json'] = kit.scenario;
  return files;
}

function summary(
  request: EvidenceRequest,
  { run, billing, ledger }: { run: Part<Awaited<ReturnType<Client['v1']['getRun']>>>; billing: Part<Awaited<ReturnType<Client['v1']['billing']>>>; ledger: Part<SimLedgerEntry[]> | null },
  parts: Array<[string, Part<unknown> | null]>,
): string {
  const { profile } = request;
  const lines: string[] = [`# Run ${request.runId}`, ''];
  const where = request.service ? `${request.service.url}${request.environment ? ` (${request.environment} environment)` : ''}` : 'the service';
  lines.push(`Saved from ${where} at ${request.nowIso}, read with the key "${request.keyName}" (${profile}).`, '');

  lines.push('| | |', '|---|---|');
  if (run.ok) {
    const r = run.value.run;
    lines.push(`| Status | ${cell(r.status)} |`, `| Created | ${cell(r.createdAt)} |`, `| Updated | ${cell(r.updatedAt)} |`);
    if (r.rpcUsed !== undefined) lines.push(`| Reads used | ${cell(r.rpcUsed)} |`);
  }
  if (billing.ok) {
    const b = billing.value;
    lines.push(`| Billing | ${cell(b.status)}${b.settlement ? ` (${cell(b.settlement.outcome)})` : ''} |`);
    if (b.settlement) {
      lines.push(
        `| Charged | ${money(b.settlement.chargedAtomic, profile)} |`,
        `| Creator fee | ${money(b.settlement.creatorFeeAtomic, profile)} |`,
        `| Platform fee | ${money(b.settlement.platformFeeAtomic, profile)} |`,
        `| Execution charge | ${money(b.settlement.executionChargeAtomic, profile)} |`,
      );
    }
    if (b.pendingReason) lines.push(`| Pending because | ${cell(b.pendingReason)} |`);
  }
  lines.push('');

  if (run.ok) {
    lines.push('## Events', '');
    for (const event of run.value.events) lines.push(`- ${event.createdAt} **${event.step}**: ${event.message}`);
    if (run.value.events.length === 0) lines.push('- (none)');
    lines.push('');
  }

  if (ledger?.ok) {
    lines.push('## Ledger lines', '', 'The balance columns are each line\'s `after` field, in atomic units, as the ledger recorded it.', '', '| At | Kind | Amount | Available | Reserved | Pending | Charged |', '|---|---|---|---|---|---|---|');
    for (const e of ledger.value) {
      lines.push(`| ${e.at} | ${cell(e.kind)} | ${money(e.amountAtomic, e.profile)} | ${e.after.availableAtomic} | ${e.after.reservedAtomic} | ${e.after.pendingAtomic} | ${e.after.chargedAtomic} |`);
    }
    if (ledger.value.length === 0) lines.push('| (none) | | | | | | |');
    lines.push('');
  } else if (!ledger) lines.push('No ledger lines: the ledger is read through the control API, which a remote service does not offer.', '');

  lines.push('## Files', '');
  for (const [name, part] of parts) {
    if (!part) continue;
    lines.push(part.ok ? `- \`${name}\`: ${part.route}` : `- \`${name}\` not saved: ${part.route} answered ${part.refusal}`);
  }
  lines.push('');
  return lines.join('\n');
}
