import type { Http } from '../client/http.ts';
import { isSignatureValid } from '../webhook/signature.ts';
import { httpFor, send } from './wire.ts';
import type { Checks, Scenario, Step } from './format.ts';
import { startReceiver, type ScenarioReceiver } from './receivers.ts';
import { newSimulators, type ScenarioSimulators } from './simulators.ts';
import type { CheckResult, ScenarioResult, StepResult } from './result.ts';
import { pick, subsetMismatch, Values } from './values.ts';

export type { CheckResult, ScenarioResult, StepResult };

// Runs a scenario against an in-process simulator in its starting state, on a frozen clock,
// reached over loopback HTTP through the typed client, and reports every step.

/** A scenario opened on its own simulator, run one step at a time (the console steps through it so). */
export interface ScenarioSession {
  readonly result: ScenarioResult;
  /** Index of the next step to run; equals the step count when done. */
  readonly nextIndex: number;
  readonly done: boolean;
  step(): Promise<StepResult | null>;
  /** Balances of every account the scenario named, as GET /sim/accounts/{id} shows them. */
  balances(): Promise<Array<{ account: string; accountId: string; balances: Array<Record<string, string>> }>>;
  close(): Promise<void>;
}

export async function openScenarioSession(scenario: Scenario, file: string, simulators: ScenarioSimulators = newSimulators): Promise<ScenarioSession> {
  const seed = String(scenario.seed ?? 1);
  const env = scenario.env ?? 'test';
  const leased = await simulators.take({ seed, env, limits: scenario.limits === 'on' });
  const { built, baseUrl } = leased;
  const receivers = new Map<string, ScenarioReceiver>();
  const result: ScenarioResult = { name: scenario.name, file, seed, env, passed: true, provisioned: [], steps: [], redactions: [] };
  const accountNames: string[] = [];
  let nextIndex = 0;
  let stopped = false;
  const close = async () => {
    for (const receiver of receivers.values()) await receiver.close();
    await leased.handBack();
  };
  let ctx: Context;
  try {
    result.redactions.push([baseUrl, '{{simulator}}']);
    const control = httpFor(baseUrl);
    const keyHttp = new Map<string, Http>();
    const values = new Values();
    ctx = { control, keyHttp, values, receivers };
    for (const [name, spec] of Object.entries(scenario.receivers ?? {})) {
      const receiver = await startReceiver(name, spec);
      receivers.set(name, receiver);
      values.set(`receivers.${name}.url`, receiver.url);
      result.redactions.push([receiver.url, `{{receivers.${name}.url}}`]);
    }
    if (scenario.startAt) {
      const moved = await send(control, 'POST', '/sim/clock/advance', { to: scenario.startAt }, 'control');
      if (moved.status !== 200) throw new Error(`startAt: ${JSON.stringify((moved.body as { error?: unknown }).error)}`);
    }
    if (scenario.demo) {
      for (const credential of built.seedDemo().credentials) {
        values.set(`accounts.demo-${credential.accountType}.id`, credential.accountId);
        values.set(`keys.demo-${credential.profile}.id`, credential.keyId);
        if (!accountNames.includes(`demo-${credential.accountType}`)) accountNames.push(`demo-${credential.accountType}`);
        registerKey(keyHttp, baseUrl, result, credential.keyId, credential.secret, `demo-${credential.profile}`);
        result.provisioned.push(`demo key demo-${credential.profile} (${credential.accountType} account)`);
      }
    }
    await provision(scenario, control, values, keyHttp, baseUrl, result);
    accountNames.push(...Object.keys(scenario.accounts ?? {}));
    const session: ScenarioSession = {
      result,
      get nextIndex() {
        return nextIndex;
      },
      get done() {
        return stopped || nextIndex >= scenario.steps.length;
      },
      async step() {
        if (session.done) return null;
        const index = nextIndex;
        nextIndex += 1;
        const stepResult = await runStep(index, scenario.steps[index], ctx);
        // A key created by a control call is usable by later steps as k<key id> (recordings refer to keys so).
        const made = stepResult.body as { key?: { id?: string }; secret?: string } | null;
        if (made?.key?.id && typeof made.secret === 'string') registerKey(keyHttp, baseUrl, result, made.key.id, made.secret);
        result.steps.push(stepResult);
        if (stepResult.error || stepResult.checks.some((c) => !c.ok)) result.passed = false;
        if (stepResult.error) stopped = true;
        return stepResult;
      },
      async balances() {
        const out = [];
        for (const account of accountNames) {
          const accountId = String(values.get(`accounts.${account}.id`));
          const view = await send(control, 'GET', `/sim/accounts/${accountId}`, undefined, 'control');
          out.push({ account, accountId, balances: (view.body as { balances?: Array<Record<string, string>> }).balances ?? [] });
        }
        return out;
      },
      close,
    };
    return session;
  } catch (error) {
    await close();
    throw error;
  }
}

export async function runScenario(scenario: Scenario, file: string, simulators?: ScenarioSimulators): Promise<ScenarioResult> {
  const session = await openScenarioSession(scenario, file, simulators);
  try {
    while (!session.done) await session.step();
  } finally {
    await session.close();
  }
  return session.result;
}

function registerKey(keyHttp: Map<string, Http>, baseUrl: string, result: ScenarioResult, keyId: string, secret: string, alias?: string): void {
  const http = httpFor(baseUrl, secret);
  keyHttp.set(`k${keyId}`, http);
  if (alias) keyHttp.set(alias, http);
  result.redactions.push([secret, `<secret of key ${alias ?? `k${keyId}`}>`]);
}

async function provision(scenario: Scenario, control: Http, values: Values, keyHttp: Map<string, Http>, baseUrl: string, result: ScenarioResult): Promise<void> {
  for (const [name, account] of Object.entries(scenario.accounts ?? {})) {
    const created = await control.send<{ account: { id: string } }>({ method: 'POST', path: '/sim/accounts', body: { type: account.type, label: account.label ?? name }, credential: 'control' });
    const accountId = created.body.account.id;
    values.set(`accounts.${name}.id`, accountId);
    result.provisioned.push(`account ${name} (${account.type})`);
    for (const [profile, amount] of Object.entries(account.deposits ?? {})) {
      await control.send({ method: 'POST', path: `/sim/accounts/${accountId}/deposits`, body: { profile, amountAtomic: amount }, credential: 'control' });
      result.provisioned.push(`  deposit ${amount} ${profile}`);
    }
    for (const [keyName, key] of Object.entries(account.keys ?? {})) {
      const made = await control.send<{ key: { id: string }; secret: string }>({ method: 'POST', path: `/sim/accounts/${accountId}/keys`, body: { name: keyName, ...key }, credential: 'control' });
      values.set(`keys.${keyName}.id`, made.body.key.id);
      keyHttp.set(keyName, httpFor(baseUrl, made.body.secret));
      result.redactions.push([made.body.secret, `<secret of key ${keyName}>`]);
      result.provisioned.push(`  key ${keyName} (${key.profile}, spend limit ${key.spendLimitAtomic})`);
    }
  }
}

interface Context {
  control: Http;
  keyHttp: Map<string, Http>;
  values: Values;
  receivers: Map<string, ScenarioReceiver>;
}

async function runStep(index: number, step: Step, ctx: Context): Promise<StepResult> {
  const result: StepResult = { index, name: step.name ?? null, action: '', request: null, status: null, body: null, saved: {}, checks: [], error: null };
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

function expectResponse(expect: NonNullable<Extract<Step, { expect?: unknown }>['expect']>, response: { status: number; body: unknown; headers: Headers }): CheckResult[] {
  const checks: CheckResult[] = [];
  if (expect.status !== undefined) checks.push({ ok: response.status === expect.status, what: 'status', expected: expect.status, actual: response.status });
  const error = (response.body as { error?: { code?: string; message?: string } } | null)?.error;
  if (expect.code !== undefined) checks.push({ ok: error?.code === expect.code, what: 'error code', expected: expect.code, actual: error?.code ?? null });
  if (expect.message !== undefined) checks.push({ ok: error?.message === expect.message, what: 'error message', expected: expect.message, actual: error?.message ?? null });
  if (expect.body !== undefined) {
    const at = subsetMismatch(expect.body, response.body);
    // A mismatch path such as "[0].kind" or "notifications[2].kind" read back as a dot path ("0.kind").
    const dotPath = at === null ? '' : at.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
    checks.push(at === null ? { ok: true, what: 'body' } : { ok: false, what: `body at ${at}`, expected: at === '(root)' ? expect.body : pick(expect.body, dotPath), actual: at === '(root)' ? response.body : pick(response.body, dotPath) });
  }
  for (const [name, value] of Object.entries(expect.header ?? {})) {
    const actual = response.headers.get(name);
    checks.push({ ok: actual === value, what: `header ${name}`, expected: value, actual });
  }
  return checks;
}

async function runChecks(checks: Checks, ctx: Context): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  if (checks.balance) {
    const { account, profile, ...fields } = checks.balance;
    const view = await send(ctx.control, 'GET', `/sim/accounts/${ctx.values.get(`accounts.${account}.id`)}`, undefined, 'control');
    const balance = ((view.body as { balances: Array<Record<string, string>> }).balances ?? []).find((b) => b.profile === profile) ?? {};
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
    const receiver = ctx.receivers.get(checks.webhook.receiver);
    if (!receiver) throw new Error(`check.webhook.receiver: no receiver named '${checks.webhook.receiver}'`);
    const matching = receiver.received.filter((r) => !checks.webhook!.type || r.type === checks.webhook!.type);
    if (checks.webhook.count !== undefined) out.push({ ok: matching.length === checks.webhook.count, what: `webhooks received by ${receiver.name}${checks.webhook.type ? ` of type ${checks.webhook.type}` : ''}`, expected: checks.webhook.count, actual: matching.length });
    if (checks.webhook.secret) {
      const secret = checks.webhook.secret;
      const bad = matching.filter((r) => !isSignatureValid(secret, r.headers['x-service-timestamp'] ?? '', r.headers['x-service-event-id'] ?? '', r.body, r.headers['x-service-signature'] ?? ''));
      out.push({ ok: bad.length === 0, what: `signatures of webhooks received by ${receiver.name}`, expected: 'all verify', actual: bad.length === 0 ? 'all verify' : `${bad.length} do not verify` });
    }
  }
  return out;
}
