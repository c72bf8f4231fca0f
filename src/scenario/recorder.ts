import { rename, writeFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactCredentials } from './credentials.ts';
import type { Scenario, Step } from './format.ts';

/**
 * Records a session as a scenario that replays to the same answers: every
 * /v1 and /sim request becomes a step expecting the status and body it got;
 * simulated time that moved between requests becomes an `advance` to that
 * time. Keys are named k<key id>, never by their secret, and secrets are left
 * out of the recorded answers. Recording starts from a new store with demo data.
 */
const SECRET_FIELDS = new Set(['secret', 'signingSecret', 'webhookSecret']);

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_FIELDS.has(k)).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/** A demo key as seeding reports it: the recording names it by id, never by secret. */
export interface RecordedDemoKey {
  keyId: string;
  secret: string;
}

export interface RecorderStart {
  seed: string;
  env: 'test' | 'production';
  limits: boolean;
  demo: RecordedDemoKey[];
  demoSeededAt?: string;
}

/** Where the simulator's request hook left the instant a request was answered at (sim/http sets it). */
const answeredAt = (request: FastifyRequest): string | undefined => (request as FastifyRequest & { simNow?: string }).simNow;

/** `nowIso` reads the simulator's clock: the recorder sees the simulator only through its HTTP hooks and this. */
export function attachRecorder(app: FastifyInstance, nowIso: () => string, file: string, start: RecorderStart) {
  // Keys created by control calls; demo keys are looked up in start.demo, which is filled once the store is seeded.
  const keyNames = new Map<string, string>();
  const nameOf = (secret: string) => keyNames.get(secret) ?? start.demo.filter((d) => d.secret === secret).map((d) => `k${d.keyId}`)[0];
  const scenario: Scenario = {
    name: `recorded session ${nowIso()}`,
    description: 'Recorded by understudy serve --record; replays with npm run scenario.',
    seed: start.seed,
    env: start.env,
    limits: start.limits ? 'on' : 'off',
    demo: true,
    steps: [],
  };
  let lastTime = nowIso();
  let writing = Promise.resolve();
  const payloads = new WeakMap<FastifyRequest, string>();

  const save = () => {
    const text = `${JSON.stringify(scenario, null, 2)}\n`;
    writing = writing.then(async () => {
      await writeFile(`${file}.tmp`, text);
      await rename(`${file}.tmp`, file);
    });
    return writing;
  };

  app.addHook('onSend', async (request, _reply, payload) => {
    // Serialized answers arrive as text; a route sending bytes, as bytes.
    if (typeof payload === 'string') payloads.set(request, payload);
    else if (Buffer.isBuffer(payload)) payloads.set(request, payload.toString('utf8'));
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    // A credential a client misplaced in the path, query or body is never written to the recording.
    const url = redactCredentials(request.url);
    if (!url.startsWith('/v1') && !url.startsWith('/sim')) return;
    if (url.startsWith('/sim/snapshot')) return;
    const at = answeredAt(request) ?? nowIso();
    if (scenario.startAt === undefined) {
      // The demo data was seeded at the first instant the store knew; the replay starts there.
      scenario.startAt = start.demoSeededAt ?? at;
      lastTime = scenario.startAt;
    }
    if (at !== lastTime) scenario.steps.push({ advance: { to: at } });
    let body: unknown;
    try {
      body = JSON.parse(payloads.get(request) ?? '');
    } catch {
      body = undefined;
    }
    const made = body as { key?: { id?: string }; secret?: string } | undefined;
    if (made?.key?.id && typeof made.secret === 'string') keyNames.set(made.secret, `k${made.key.id}`);
    const expect = { status: reply.statusCode, ...(body !== undefined ? { body: withoutSecrets(body) } : {}) };
    const method = request.method;
    const requestBody = request.body === undefined || request.body === null ? undefined : JSON.parse(redactCredentials(JSON.stringify(request.body)));
    let step: Step;
    if (url.startsWith('/v1')) {
      const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const key = bearer ? nameOf(bearer) : undefined;
      const headers = bearer && !key ? { authorization: 'Bearer svc_test_unknown-key-not-recorded' } : undefined;
      step = { call: { method, path: url, ...(key ? { key } : {}), ...(headers ? { headers } : {}), ...(requestBody !== undefined ? { body: requestBody } : {}) }, expect };
    } else {
      step = { control: { method, path: url, ...(requestBody !== undefined ? { body: requestBody } : {}) }, expect };
    }
    scenario.steps.push(step);
    // Where a replay's frozen clock stands after this step: at the step's own
    // instant, or, for an advance, at the instant the advance reached.
    const reached = url.startsWith('/sim/clock/advance') ? (body as { now?: unknown } | undefined)?.now : undefined;
    lastTime = typeof reached === 'string' ? reached : at;
    await save();
  });
  return { flush: () => writing, scenario };
}
