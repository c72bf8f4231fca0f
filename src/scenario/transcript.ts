import type { ScenarioResult, StepResult } from './runner.ts';
import { redactCredentials } from './credentials.ts';

/**
 * Transcripts: a readable one and a JSON one, both byte-identical across runs
 * and machines for the same file (ports become placeholders, secrets are
 * redacted, no wall-clock durations are printed).
 */

export function redact(text: string, result: ScenarioResult): string {
  let out = text;
  for (const [from, to] of result.redactions) out = out.split(from).join(to);
  return redactCredentials(out, '<redacted secret>');
}

const compact = (value: unknown) => JSON.stringify(value);

/** The essentials of an answer: error code and message, or ids, statuses and amounts. */
function summarize(step: StepResult): string {
  const body = step.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object') return '';
  const error = body.error as { code?: string; message?: string } | undefined;
  if (error) return ` ${error.code}: ${error.message}`;
  const facts: string[] = [];
  if (step.action === 'advance') facts.push(`now ${String(body.now)}`, `${(body.processed as unknown[] | undefined)?.length ?? 0} jobs`);
  for (const [name, value] of Object.entries(body)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const v = value as Record<string, unknown>;
    if (typeof v.id === 'string') facts.push(`${name}.id ${v.id}`);
    if (typeof v.status === 'string') facts.push(`${name}.status ${v.status}`);
    if (typeof v.state === 'string') facts.push(`${name}.state ${v.state}`);
  }
  if (typeof body.status === 'string') facts.push(`status ${body.status}`);
  const settlement = body.settlement as { chargedAtomic?: string } | undefined;
  if (settlement?.chargedAtomic) facts.push(`charged ${settlement.chargedAtomic}`);
  return facts.length ? ` ${facts.slice(0, 6).join(', ')}` : '';
}

function describeRequest(step: StepResult): string {
  if (!step.request) return step.action;
  const key = step.request.key ? ` [key ${step.request.key}]` : '';
  const body = step.request.body !== undefined && step.action !== 'call' && step.action !== 'control' ? ` ${compact(step.request.body)}` : '';
  return `${step.action} ${step.request.method} ${step.request.path}${key}${body}`;
}

export function textTranscript(result: ScenarioResult): string {
  const lines: string[] = [`scenario ${result.name} (${result.file}; seed ${result.seed}, env ${result.env})`];
  for (const p of result.provisioned) lines.push(`  provision ${p}`);
  for (const step of result.steps) {
    const label = step.name ? ` ${step.name}:` : '';
    lines.push(`[${step.index}]${label} ${describeRequest(step)}${step.status !== null ? ` -> ${step.status}${summarize(step)}` : ''}`);
    if (step.request?.headers) lines.push(`      headers ${compact(step.request.headers)}`);
    if (step.request?.body !== undefined && (step.action === 'call' || step.action === 'control')) lines.push(`      request ${compact(step.request.body)}`);
    for (const [name, value] of Object.entries(step.saved)) lines.push(`      saved ${name} = ${compact(value)}`);
    for (const check of step.checks) {
      lines.push(check.ok ? `      ok   ${check.what}` : `      FAIL ${check.what}\n           expected ${compact(check.expected)}\n           actual   ${compact(check.actual)}`);
    }
    if (step.error) lines.push(`      ERROR ${step.error}`);
  }
  const checks = result.steps.flatMap((s) => s.checks);
  const failed = checks.filter((c) => !c.ok).length + result.steps.filter((s) => s.error).length;
  lines.push(`${result.passed ? 'PASSED' : 'FAILED'} ${result.name}: ${checks.length - checks.filter((c) => !c.ok).length} passed, ${failed} failed`);
  return redact(`${lines.join('\n')}\n`, result);
}

export function jsonTranscript(result: ScenarioResult): unknown {
  const { redactions: _redactions, ...visible } = result;
  return JSON.parse(redact(JSON.stringify(visible), result));
}
