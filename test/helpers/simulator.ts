import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { buildSimulator, type BuiltSimulator } from '../../sim/app.ts';
import type { SimulatorOptions } from '../../sim/simulator.ts';
import { seedDemo, type DemoCredential } from '../../sim/domain/demo.ts';

/** A real simulator on a real file store in a fresh temporary directory. */
export interface TestSimulator extends BuiltSimulator {
  dir: string;
  storePath: string;
  demo: DemoCredential[];
  /** The demo key secret of a profile. */
  secret(profile: DemoCredential['profile']): string;
  request(options: { method?: string; url: string; key?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  json<T = any>(options: { method?: string; url: string; key?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: T; headers: Record<string, unknown> }>;
  /** Every answer so far that its /v1 route does not declare (see checkDeclared). */
  violations(): readonly string[];
  /** Closes the simulator; throws if an answer broke its route's declaration and no request() call reported it. */
  destroy(): Promise<void>;
}

type BeforeReady = NonNullable<Parameters<typeof buildSimulator>[0]['beforeReady']>;

/**
 * Every test that starts a simulator here also checks the description (spec 9)
 * against what the simulator really sends: each answer of a matched /v1 route must
 * have a status its route declares (OpenAPI 3.1 codes: exact, 4XX-style ranges,
 * default), carry every header declared for that status, and declare each of the
 * API's own headers it carries. So the whole suite, not a list kept by hand, says
 * which (route, status) pairs occur.
 */
export async function startSimulator(options: Partial<SimulatorOptions> & { demo?: boolean; dir?: string; beforeReady?: BeforeReady } = {}): Promise<TestSimulator> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'understudy-test-')));
  const storePath = options.storePath ?? join(dir, 'store.json');
  const violations: string[] = [];
  // Per request, so that request() fails the very call that caused one; the rest fail destroy().
  const violationsOf = new WeakMap<object, string[]>();
  let reported = 0;
  const beforeReady: BeforeReady = (app, sim) => {
    options.beforeReady?.(app, sim);
    // onSend, after the app's own (which sets Cache-Control and may turn a failed save into a 500): the final answer.
    app.addHook('onSend', (request, reply, payload, done) => {
      const found = checkDeclared(request, reply);
      if (found.length > 0) {
        violations.push(...found);
        violationsOf.set(request.raw, found);
      }
      done(null, payload);
    });
  };
  const built = await buildSimulator({ clock: 'frozen', seed: 1, limits: false, ...options, storePath, beforeReady });
  const demo = options.demo === false || !built.sim.created ? [] : seedDemo(built.sim.deps);
  const request: TestSimulator['request'] = async ({ method = 'GET', url, key, body, headers = {} }) => {
    const response = await built.app.inject({
      method: method as never,
      url,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      ...(body !== undefined ? { payload: body as never } : {}),
    });
    const found = violationsOf.get(response.raw.req);
    if (found) {
      reported += found.length;
      throw new Error(`undeclared answer: ${found.join('; ')}`);
    }
    return response;
  };
  return {
    ...built,
    dir,
    storePath,
    demo,
    secret(profile) {
      const credential = demo.find((d) => d.profile === profile);
      if (!credential) throw new Error(`no demo key for ${profile}`);
      return credential.secret;
    },
    request,
    async json(options) {
      const response = await request(options);
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, headers: response.headers };
    },
    violations: () => violations,
    async destroy() {
      await built.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
      if (violations.length > reported) throw new Error(`undeclared answers: ${violations.join('; ')}`);
    },
  };
}

/** The API's own response headers (spec 2.1, 2.12, 7), as Node names them. */
const API_HEADERS = ['cache-control', 'retry-after', 'x-service-artifact-id'];

/** What is wrong with one answer, measured against its route's declared responses; nothing for /sim or unmatched paths. */
function checkDeclared(request: FastifyRequest, reply: FastifyReply): string[] {
  const route = request.routeOptions;
  if (request.is404 || !route.url?.startsWith('/v1/')) return [];
  const status = reply.statusCode;
  const where = `${request.method} ${route.url} (${request.url}) answered ${status}`;
  const responses = ((route.schema as { response?: Record<string, { headers?: object }> } | undefined)?.response ?? {}) as Record<string, { headers?: object }>;
  const range = `${String(status)[0]}XX`;
  const declared = responses[status] ?? responses[range] ?? responses[range.toLowerCase()] ?? responses.default;
  if (!declared) return [`${where}, a status it does not declare`];
  const declaredHeaders = new Set(Object.keys(declared.headers ?? {}).map((name) => name.toLowerCase()));
  const problems: string[] = [];
  for (const name of API_HEADERS) {
    const sent = reply.hasHeader(name);
    // Spec 2.1: Cache-Control goes with keyed requests only; spec 7: every 429 says when to retry.
    const due = name === 'cache-control' ? request.headers.authorization !== undefined : declaredHeaders.has(name) || (name === 'retry-after' && status === 429);
    if (sent && !declaredHeaders.has(name)) problems.push(`${where} with ${name}, which its ${status} does not declare`);
    if (due && !sent) problems.push(`${where} without ${name}`);
  }
  return problems;
}

/** Listens on a free loopback port, for tests that need real sockets. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}
