import { ApiError } from '../client/errors.ts';
import { createHttp, type Http } from '../client/http.ts';
import { DEFAULT_RETRY } from '../client/retry.ts';
import type { SimBalance } from '../client/types.ts';
import type { Checks, Scenario, Step } from '../scenario/format.ts';
import { startReceiver, type ScenarioReceiver } from '../scenario/receivers.ts';
import { pick, subsetMismatch, Values } from '../scenario/values.ts';

/**
 * Scenario stepping for the console: the same provisioning and step logic as
 * src/scenario/runner.ts (which runs a whole file at once), split so that each
 * step runs on its own and the console can show its request, its answer and
 * the ledger balances (GET /sim/accounts/{id}) right after it.
 *
 * Like the runner, it works on a fresh simulator on a frozen clock, never on
 * the console's own: the simulator is made by an injected factory, so this
 * module (and the console) never imports the simulator.
 */
export interface FreshSimulator {
  baseUrl: string;
  /** Seeds the demo accounts and keys (scenario `demo: true`). */
  seedDemo(): Array<{ accountId: string; accountType: string; profile: string; keyId: string; secret: string }>;
  close(): Promise<void>;
}

export type FreshSimulatorFactory = (options: { seed: string; env: 'test' | 'production'; limits: boolean }) => Promise<FreshSimulator>;

export interface StepCheck {
  ok: boolean;
  what: string;
  expected?: unknown;
  actual?: unknown;
}

export interface AccountBalances {
  /** The scenario's name for the account (`payer`, `demo-evm`, ...). */
  name: string;
  accountId: string;
  balances: SimBalance[];
}

export interface StepView {
  index: number;
  name: string | null;
  action: string;
  request: { method: string; path: string; key?: string; headers?: Record<string, string>; body?: unknown } | null;
  status: number | null;
  body: unknown;
  saved: Record<string, unknown>;
  checks: StepCheck[];
  error: string | null;
  /** Every account of the scenario, read after the step. */
  balances: AccountBalances[];
}

export interface ScenarioStepper {
  name: string;
  description: string | null;
  file: string;
  total: number;
  provisioned: string[];
  /** The index of the step `step()` runs next; equals `total` when done. */
  nextIndex(): number;
  isDone(): boolean;
  step(): Promise<StepView>;
  close(): Promise<void>;
}

// A scenario states what happens; a retry would hide a refusal it means to show.
const NO_RETRY = { ...DEFAULT_RETRY, retries: 0 };

/** Sends a step's own headers and keeps the answer's headers (see runner.ts). */
interface Wire {
  extraHeaders: Record<string, string>;
  lastHeaders: Headers | null;
}

interface WiredHttp {
  http: Http;
  wire: Wire;
}

function httpFor(baseUrl: string, key?: string): WiredHttp {
  const wire: Wire = { extraHeaders: {}, lastHeaders: null };
  const wiredFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...wire.extraHeaders } });
    wire.lastHeaders = response.headers;
    return response;
  };
  return { http: createHttp({ baseUrl, ...(key !== undefined ? { key } : {}), retry: NO_RETRY, fetch: wiredFetch }), wire };
}

async function send(target: WiredHttp, method: string, path: string, body: unknown, credential: 'key' | 'control' | 'none', extraHeaders: Record<string, string> = {}) {
  const { http, wire } = target;
  wire.extraHeaders = Object.fromEntries(Object.entries(extraHeaders).map(([name, value]) => [name.toLowerCase(), value]));
  wire.lastHeaders = null;
  try {
    const response = await http.send<unknown>({ method: method as never, path, body, credential });
    return { status: response.status, body: response.body, headers: response.headers };
  } catch (error) {
    if (error instanceof ApiError) {
      // Set by the fetch above when an answer arrived (TypeScript cannot see that assignment).
      let headers = wire.lastHeaders as Headers | null;
      if (!headers) {
        headers = new Headers();
        if (error.retryAfterSeconds !== null) headers.set('retry-after', String(error.retryAfterSeconds));
      }
      return { status: error.status, body: { error: { code: error.code, message: error.message } }, headers };
    }
    throw error;
  } finally {
    wire.extraHeaders = {};
  }
}

interface Context {
  control: WiredHttp;
  keyHttp: Map<string, WiredHttp>;
  values: Values;
  receivers: Map<string, ScenarioReceiver>;
  accounts: Array<{ name: string; accountId: string }>;
}

/** Provisions the scenario on a fresh simulator; the steps then run one `step()` at a time. */
export async function startScenarioStepper(scenario: Scenario, file: string, freshSimulator: FreshSimulatorFactory): Promise<ScenarioStepper> {
  const seed = String(scenario.seed ?? 1);
  const env = scenario.env ?? 'test';
  const sim = await freshSimulator({ seed, env, limits: scenario.limits === 'on' });
  const receivers = new Map<string, ScenarioReceiver>();
  const provisioned: string[] = [];
  const ctx: Context = { control: httpFor(sim.baseUrl), keyHttp: new Map(), values: new Values(), receivers, accounts: [] };
  const close = async () => {
    for (const receiver of receivers.values()) await receiver.close();
    await sim.close();
  };

  try {
    for (const [name, spec] of Object.entries(scenario.receivers ?? {})) {
      const receiver = await startReceiver(name, spec);
      receivers.set(name, receiver);
      ctx.values.set(`receivers.${name}.url`, receiver.url);
    }
    if (scenario.startAt) {
      const moved = await send(ctx.control, 'POST', '/sim/clock/advance', { to: scenario.startAt }, 'control');
      if (moved.status !== 200) throw new Error(`startAt: ${JSON.stringify((moved.body as { error?: unknown }).error)}`);
    }
    if (scenario.demo) {
      for (const credential of sim.seedDemo()) {
        const accountName = `demo-${credential.accountType}`;
        ctx.values.set(`accounts.${accountName}.id`, credential.accountId);
        if (!ctx.accounts.some((a) => a.accountId === credential.accountId)) ctx.accounts.push({ name: accountName, accountId: credential.accountId });
        ctx.values.set(`keys.demo-${credential.profile}.id`, credential.keyId);
        const http = httpFor(sim.baseUrl, credential.secret);
        ctx.keyHttp.set(`k${credential.keyId}`, http);
        ctx.keyHttp.set(`demo-${credential.profile}`, http);
        provisioned.push(`demo key demo-${credential.profile} (${credential.accountType} account)`);
      }
    }
    await provision(scenario, ctx, sim.baseUrl, provisioned);
  } catch (error) {
    await close();
    throw error;
  }

  let next = 0;
  return {
    name: scenario.name,
    description: scenario.description ?? null,
    file,
    total: scenario.steps.length,
    provisioned,
    nextIndex: () => next,
    isDone: () => next >= scenario.steps.length,
    async step() {
      if (next >= scenario.steps.length) throw new Error('The scenario has no more steps.');
      const index = next;
      next += 1;
      const view = await runStep(index, scenario.steps[index], ctx);
      // A key created by a control call is usable by later steps as k<key id> (as in runner.ts).
      const made = view.body as { key?: { id?: string }; secret?: string } | null;
      if (made?.key?.id && typeof made.secret === 'string') ctx.keyHttp.set(`k${made.key.id}`, httpFor(sim.baseUrl, made.secret));
      // A failed step ends the scenario, as in runner.ts.
      if (view.error) next = scenario.steps.length;
      view.balances = await balancesOf(ctx);
      return view;
    },
    close,
  };
}

async function provision(scenario: Scenario, ctx: Context, baseUrl: string, provisioned: string[]): Promise<void> {
  for (const [name, account] of Object.entries(scenario.accounts ?? {})) {
    const created = await ctx.control.http.send<{ account: { id: string } }>({ method: 'POST', path: '/sim/accounts', body: { type: account.type, label: account.label ?? name }, credential: 'control' });
    const accountId = created.body.account.id;
    ctx.values.set(`accounts.${name}.id`, accountId);
    ctx.accounts.push({ name, accountId });
    provisioned.push(`account ${name} (${account.type})`);
    for (const [profile, amount] of Object.entries(account.deposits ?? {})) {
      await ctx.control.http.send({ method: 'POST', path: `/sim/accounts/${accountId}/deposits`, body: { profile, amountAtomic: amount }, credential: 'control' });
      provisioned.push(`  deposit ${amount} ${profile}`);
    }
    for (const [keyName, key] of Object.entries(account.keys ?? {})) {
      const made = await ctx.control.http.send<{ key: { id: string }; secret: string }>({ method: 'POST', path: `/sim/accounts/${accountId}/keys`, body: { name: keyName, ...key }, credential: 'control' });
      ctx.values.set(`keys.${keyName}.id`, made.body.key.id);
      ctx.keyHttp.set(keyName, httpFor(baseUrl, made.body.secret));
      provisioned.push(`  key ${keyName} (${key.profile}, spend limit ${key.spendLimitAtomic})`);
    }
  }
}

async function balancesOf(ctx: Context): Promise<AccountBalances[]> {
  const out: AccountBalances[] = [];
  for (const { name, accountId } of ctx.accounts) {
    const view = await send(ctx.control, 'GET', `/sim/accounts/${accountId}`, undefined, 'control');
    out.push({ name, accountId, balances: view.status === 200 ? ((view.body as { balances?: SimBalance[] }).balances ?? []) : [] });
  }
  return out;
}

async function runStep(index: number, step: Step, ctx: Context): Promise<StepView> {
  const result: StepView = { index, name: step.name ?? null, action: '', request: null, status: null, body: null, saved: {}, checks: [], error: null, balances: [] };
  try {
    if ('check' in step) {
      result.action = 'check';
      result.checks = await runChecks(ctx.values.resolve(step.check), ctx);
      return result;
    }
    let response: { status: number; body: unknown; headers: Headers };
    if ('call' in step) {
      result.action = 'call';
      const call = ctx.values.resolve(step.call);
      const query = call.query ? `?${new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)]))}` : '';
      const http = call.key ? ctx.keyHttp.get(call.key) : ctx.control;
      if (!http) throw new Error(`steps[${index}].call.key: no key named '${call.key}' was provisioned`);
      result.request = { method: call.method, path: call.path + query, ...(call.key ? { key: call.key } : {}), ...(call.headers ? { headers: call.headers } : {}), ...(call.body !== undefined ? { body: call.body } : {}) };
      response = await send(http, call.method, call.path + query, call.body, call.key ? 'key' : 'none', call.headers);
    } else if ('control' in step) {
      result.action = 'control';
      const c = ctx.values.resolve(step.control);
      result.request = { method: c.method, path: c.path, ...(c.body !== undefined ? { body: c.body } : {}) };
      response = await send(ctx.control, c.method, c.path, c.body, 'control');
    } else {
      const [action, method, path, body] =
        'advance' in step
          ? ['advance', 'POST', '/sim/clock/advance', ctx.values.resolve(step.advance)]
          : 'block' in step
            ? ['block', 'POST', `/sim/chains/${encodeURIComponent(ctx.values.resolve(step.block.chain))}/blocks`, ctx.values.resolve({ count: step.block.count, logs: step.block.logs })]
            : ['reorg', 'POST', `/sim/chains/${encodeURIComponent(ctx.values.resolve(step.reorg.chain))}/reorg`, ctx.values.resolve({ depth: step.reorg.depth, logs: step.reorg.logs })];
      result.action = action;
      result.request = { method, path, body };
      response = await send(ctx.control, method, path, JSON.parse(JSON.stringify(body)), 'control');
    }
    result.status = response.status;
    result.body = response.body;
    for (const [name, path] of Object.entries(step.save ?? {})) {
      const value = pick(response.body, path);
      if (value === undefined) throw new Error(`steps[${index}].save.${name}: the answer has no '${path}'`);
      ctx.values.set(name, value);
      result.saved[name] = value;
    }
    if (step.expect) result.checks = expectResponse(ctx.values.resolve(step.expect), response);
    else if (response.status >= 400) result.checks = [{ ok: false, what: 'an unexpected refusal (add an expect to make it intended)', expected: '2xx', actual: response.status }];
  } catch (error) {
    result.error = (error as Error).message;
  }
  return result;
}

function expectResponse(expect: NonNullable<Extract<Step, { expect?: unknown }>['expect']>, response: { status: number; body: unknown; headers: Headers }): StepCheck[] {
  const checks: StepCheck[] = [];
  if (expect.status !== undefined) checks.push({ ok: response.status === expect.status, what: 'status', expected: expect.status, actual: response.status });
  const error = (response.body as { error?: { code?: string; message?: string } } | null)?.error;
  if (expect.code !== undefined) checks.push({ ok: error?.code === expect.code, what: 'error code', expected: expect.code, actual: error?.code ?? null });
  if (expect.message !== undefined) checks.push({ ok: error?.message === expect.message, what: 'error message', expected: expect.message, actual: error?.message ?? null });
  if (expect.body !== undefined) {
    const at = subsetMismatch(expect.body, response.body);
    const dotPath = at === null ? '' : at.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
    checks.push(at === null ? { ok: true, what: 'body' } : { ok: false, what: `body at ${at}`, expected: at === '(root)' ? expect.body : pick(expect.body, dotPath), actual: at === '(root)' ? response.body : pick(response.body, dotPath) });
  }
  for (const [name, value] of Object.entries(expect.header ?? {})) {
    const actual = response.headers.get(name);
    checks.push({ ok: actual === value, what: `header ${name}`, expected: value, actual });
  }
  return checks;
}

async function runChecks(checks: Checks, ctx: Context): Promise<StepCheck[]> {
  const out: StepCheck[] = [];
  if (checks.balance) {
    const { account, profile, ...fields } = checks.balance;
    const view = await send(ctx.control, 'GET', `/sim/accounts/${String(ctx.values.get(`accounts.${account}.id`))}`, undefined, 'control');
    const balance = ((view.body as { balances?: Array<Record<string, string>> }).balances ?? []).find((b) => b.profile === profile) ?? {};
    for (const [field, expected] of Object.entries(fields)) {
      out.push({ ok: (balance[field] ?? '0') === expected, what: `balance ${account} ${profile} ${field}`, expected, actual: balance[field] ?? '0' });
    }
  }
  if (checks.keySpend) {
    const http = ctx.keyHttp.get(checks.keySpend.key);
    if (!http) throw new Error(`check.keySpend.key: no key named '${checks.keySpend.key}'`);
    const view = await send(http, 'GET', '/v1/buyer/key', undefined, 'key');
    const actual = (view.body as { key?: { spendUsedAtomic?: string } }).key?.spendUsedAtomic ?? null;
    out.push({ ok: actual === checks.keySpend.spendUsedAtomic, what: `key ${checks.keySpend.key} spendUsedAtomic`, expected: checks.keySpend.spendUsedAtomic, actual });
  }
  if (checks.webhook) {
    const webhook = checks.webhook;
    const receiver = ctx.receivers.get(webhook.receiver);
    if (!receiver) throw new Error(`check.webhook.receiver: no receiver named '${webhook.receiver}'`);
    const matching = receiver.received.filter((r) => !webhook.type || r.type === webhook.type);
    if (webhook.count !== undefined) out.push({ ok: matching.length === webhook.count, what: `webhooks received by ${receiver.name}${webhook.type ? ` of type ${webhook.type}` : ''}`, expected: webhook.count, actual: matching.length });
    if (webhook.secret) {
      const secret = webhook.secret;
      const bad: unknown[] = [];
      for (const r of matching) {
        if (`v1=${await hmacSha256Hex(secret, `${r.headers['x-service-timestamp']}.${r.headers['x-service-event-id']}.${r.body}`)}` !== r.headers['x-service-signature']) bad.push(r);
      }
      out.push({ ok: bad.length === 0, what: `signatures of webhooks received by ${receiver.name}`, expected: 'all verify', actual: bad.length === 0 ? 'all verify' : `${bad.length} do not verify` });
    }
  }
  return out;
}

/** HMAC-SHA256 in hex through Web Crypto (global in Node 20), as spec 6.2 signs deliveries. */
async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
