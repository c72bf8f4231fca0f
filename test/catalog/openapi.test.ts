import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { registerRoutes } from '../../sim/http/routes/index.ts';
import { drillRoutes } from '../../sim/drill/index.ts';
import { installOpenApi } from '../../sim/http/openapi.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/** GET /v1/openapi.json (spec part 9) against the routes the simulator really serves. */

type Json = any;

interface ServedRoute {
  method: string;
  url: string;
}

/** Every method and path of a Fastify app, parsed from printRoutes({ commonPrefix: false }). */
function servedRoutes(app: FastifyInstance): ServedRoute[] {
  const routes: ServedRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)(?:├──|└──) (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    if (m[3]) for (const method of m[3].split(', ')) routes.push({ method, url: stack.join('') });
  }
  return routes;
}

/**
 * The route options (schemas, config) of every route the simulator registers, recorded
 * by an onRoute hook on a bare Fastify instance fed the very same registerRoutes, after
 * the app's own onRoute hook (installOpenApi) has added the shared responses.
 */
async function recordRouteOptions(s: TestSimulator): Promise<RouteOptions[]> {
  const recorder = Fastify();
  const recorded: RouteOptions[] = [];
  recorder.addHook('onRoute', (route) => {
    recorded.push(route);
  });
  // Nothing is validated or serialized here: only the declarations are wanted.
  recorder.setValidatorCompiler(() => () => true);
  recorder.setSerializerCompiler(() => (data) => JSON.stringify(data));
  installOpenApi(recorder);
  registerRoutes(recorder, s.services, s.sim);
  drillRoutes(recorder, s.drill, (runId) => s.services.runs.money(runId));
  await recorder.ready();
  await recorder.close();
  return recorded;
}

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema));
const isDocumentedV1 = (url: string) => url.startsWith('/v1/');

/** Every group of string literals a schema offers for one value: an enum, a const, or an anyOf/oneOf of them. */
function enumGroups(node: Json, out: string[][] = []): string[][] {
  if (Array.isArray(node)) {
    for (const item of node) enumGroups(item, out);
    return out;
  }
  if (node === null || typeof node !== 'object') return out;
  if (Array.isArray(node.enum)) out.push(node.enum.map(String));
  if (typeof node.const === 'string') out.push([node.const]);
  for (const combinator of ['anyOf', 'oneOf']) {
    const members = node[combinator];
    if (Array.isArray(members) && members.length > 0 && members.every((m: Json) => m && (Array.isArray(m.enum) || typeof m.const === 'string'))) {
      out.push(members.flatMap((m: Json) => (Array.isArray(m.enum) ? m.enum.map(String) : [m.const])));
    }
  }
  for (const value of Object.values(node)) enumGroups(value, out);
  return out;
}

function refsOf(node: Json, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, out);
  else if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string') out.push(node.$ref);
    for (const value of Object.values(node)) refsOf(value, out);
  }
  return out;
}

let s: TestSimulator;
let doc: Json;
let served: ServedRoute[];
let declared: RouteOptions[];

beforeAll(async () => {
  s = await startSimulator();
  const r = await s.json({ url: '/v1/openapi.json' });
  expect(r.status).toBe(200);
  doc = r.body;
  served = servedRoutes(s.app);
  declared = await recordRouteOptions(s);
});
afterAll(async () => {
  await s?.destroy();
});

describe('GET /v1/openapi.json', () => {
  it('answers without a key, as JSON', async () => {
    const r = await s.request({ url: '/v1/openapi.json' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toEqual(doc);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("declares OpenAPI 3.1.x and the info version '1.2.0-local'", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.2.0-local');
    expect(typeof doc.info.title).toBe('string');
  });

  it("shows the svc_test_ key prefix and calls the ETH rail 'local-custody'", () => {
    const text = JSON.stringify(doc);
    expect(text).toContain('svc_test_');
    expect(text).toContain('local-custody');
    expect(text).toContain('local_custody');
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref
        .slice(2)
        .split('/')
        .reduce((node: Json, part) => (node === undefined ? undefined : node[part.replace(/~1/g, '/').replace(/~0/g, '~')]), doc);
      expect(target, ref).toEqual(expect.any(Object));
    }
  });

  it('lists the /v1/rehearsal routes', () => {
    const rehearsal = served.filter((r) => r.url.startsWith('/v1/rehearsal/') && r.method !== 'HEAD');
    expect(rehearsal.map((r) => r.url)).toContain('/v1/rehearsal/catalog');
    for (const route of rehearsal) expect(doc.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()], route.url).toBeDefined();
  });

  it('still lists the /v1/rehearsal routes in production, where they answer 503', async () => {
    const prod = await startSimulator({ env: 'production' });
    try {
      const r = await prod.json({ url: '/v1/openapi.json' });
      expect(r.status).toBe(200);
      expect(r.body.paths['/v1/rehearsal/catalog']?.get).toBeDefined();
      expect((await prod.json({ url: '/v1/rehearsal/catalog' })).status).toBe(503);
    } finally {
      await prod.destroy();
    }
  });

  describe('covers every /v1 route the app serves', () => {
    it('the recorded declarations are exactly the routes the app serves', () => {
      const servedKeys = served.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`).sort();
      const declaredKeys = declared
        .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => `${m} ${r.url}`))
        .filter((k) => !k.startsWith('HEAD '))
        .sort();
      expect(declaredKeys).toEqual(servedKeys);
      for (const r of served) expect(s.app.hasRoute({ method: r.method as never, url: r.url }), `${r.method} ${r.url}`).toBe(true);
      expect(servedKeys.filter((k) => isDocumentedV1(k.split(' ')[1])).length).toBeGreaterThanOrEqual(7);
    });

    it('every /v1 route appears in paths with its method, operationId and security', () => {
      const v1 = declared.filter((r) => isDocumentedV1(r.url));
      expect(v1.length).toBeGreaterThan(0);
      for (const route of v1) {
        const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
        for (const method of methods) {
          const op = doc.paths[toOpenApiPath(route.url)]?.[method.toLowerCase()];
          expect(op, `${method} ${route.url} is missing`).toBeDefined();
          const schema = (route.schema ?? {}) as Json;
          if (schema.operationId) expect(op.operationId).toBe(schema.operationId);
          const auth = (route.config as Json)?.auth;
          if (auth === 'key') expect(op.security).toEqual([{ apiKey: [] }]);
          if (auth === 'optional') expect(op.security).toContainEqual({});
        }
      }
    });

    it('every /v1 route carries its query and path parameters, with their schemas', () => {
      for (const route of declared.filter((r) => isDocumentedV1(r.url) && r.method !== 'HEAD')) {
        const schema = (route.schema ?? {}) as Json;
        const op = doc.paths[toOpenApiPath(route.url)][String(route.method).toLowerCase()];
        const parameters: Json[] = op.parameters ?? [];
        for (const [part, location] of [['querystring', 'query'], ['params', 'path']] as const) {
          const declaredSchema = schema[part] ? plain(schema[part]) : { properties: {} };
          const names = Object.keys(declaredSchema.properties ?? {}).sort();
          const documented = parameters.filter((p) => p.in === location);
          expect(documented.map((p) => p.name).sort(), `${route.url} ${location} parameters`).toEqual(names);
          for (const p of documented) {
            const expected = declaredSchema.properties[p.name];
            expect(p.schema, `${route.url} ${location} ${p.name}`).toMatchObject(expected);
            const required = location === 'path' || (declaredSchema.required ?? []).includes(p.name);
            expect(Boolean(p.required)).toBe(required);
          }
        }
        if (schema.body) expect(op.requestBody?.content?.['application/json']?.schema, `${route.url} body`).toBeDefined();
      }
    });

    it('every /v1 route carries each response status it declares, with a JSON schema', () => {
      for (const route of declared.filter((r) => isDocumentedV1(r.url) && r.method !== 'HEAD')) {
        const schema = (route.schema ?? {}) as Json;
        const op = doc.paths[toOpenApiPath(route.url)][String(route.method).toLowerCase()];
        const statuses = Object.keys(schema.response ?? {}).sort();
        expect(statuses.length, `${route.url} declares responses`).toBeGreaterThan(0);
        expect(Object.keys(op.responses).sort(), route.url).toEqual(statuses);
        for (const status of statuses) {
          const documented = op.responses[status].content?.['application/json']?.schema;
          expect(documented, `${route.url} ${status}`).toEqual(expect.any(Object));
          const declaredResponse = plain(schema.response[status]);
          if (declaredResponse.$ref) expect(documented.$ref).toBe(`#/components/schemas/${declaredResponse.$ref}`);
          if (Number(status) >= 400) expect(documented.$ref).toBe('#/components/schemas/ErrorBody');
        }
      }
    });

    it('documents no /v1 path the app does not serve, and no /sim path', () => {
      const servedPaths = new Set(served.filter((r) => isDocumentedV1(r.url)).map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.url)}`));
      for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
        expect(path.startsWith('/v1/'), path).toBe(true);
        for (const method of Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))) {
          expect(servedPaths.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
        }
      }
    });
  });

  describe('declares every status and header the simulator sends (spec 9)', () => {
    /** Every operation of the document, with its method and path. */
    const operations = (): Array<{ method: string; path: string; op: Json }> =>
      Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
        Object.entries(item as Record<string, Json>)
          .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map(([method, op]) => ({ method, path, op })),
      );

    it('lists /v1/openapi.json itself, callable without a key, saying so with security: []', () => {
      const op = doc.paths['/v1/openapi.json']?.get;
      expect(op).toBeDefined();
      expect(op.security).toEqual([]);
      expect(op.responses['200'].content['application/json'].schema.type).toBe('object');
    });

    it('gives every operation a summary', () => {
      expect(operations().length).toBeGreaterThanOrEqual(25);
      for (const { method, path, op } of operations()) expect(op.summary, `${method} ${path}`).toMatch(/\S/);
    });

    it('declares 413 and 415 on every operation that takes a body, 429, 500 and 503 on every one', () => {
      for (const { method, path, op } of operations()) {
        const statuses = Object.keys(op.responses);
        expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['429', '500', '503']));
        if (method === 'post') expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['413', '415']));
        else expect(statuses, `${method} ${path}`).not.toContain('413');
      }
    });

    it('declares Retry-After on every 429, X-Service-Artifact-Id on the export, Cache-Control on every response', () => {
      for (const { method, path, op } of operations()) {
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
          const where = `${method} ${path} ${status}`;
          expect(response.headers?.['Cache-Control']?.schema, where).toEqual({ type: 'string', const: 'no-store' });
          if (status === '429') expect(response.headers['Retry-After']?.schema, where).toMatchObject({ type: 'integer', minimum: 1 });
          else expect(response.headers['Retry-After'], where).toBeUndefined();
          const artifact = method === 'get' && path === '/v1/runs/{id}/export' && status === '200';
          expect(Boolean(response.headers['X-Service-Artifact-Id']), where).toBe(artifact);
        }
      }
    });
  });

  it('documents the catalog parameters of spec 4.1 with their enums and bounds', () => {
    const parameters: Json[] = doc.paths['/v1/public/agents'].get.parameters;
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p.schema]));
    expect(Object.keys(byName).sort()).toEqual(
      ['available', 'category', 'chain', 'cursor', 'limit', 'ownership', 'permission', 'priceStructure', 'profile', 'q', 'review', 'sort', 'topic'],
    );
    expect(byName.q.maxLength).toBe(100);
    expect(byName.chain.enum).toEqual(['ethereum', 'base', 'chainx', 'solana']);
    expect(byName.sort.enum).toEqual(['newest', 'name', 'price']);
    expect(byName.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(byName.cursor.maxLength).toBe(600);
  });

  it('omits the run status partial from every run status enum', () => {
    const groups = enumGroups(doc);
    const statusGroups = groups.filter((g) => g.includes('queued'));
    for (const group of statusGroups) expect(group, `enum ${JSON.stringify(group)}`).not.toContain('partial');
    // Once the document describes runs, it must carry a run status enum at all.
    const describesRuns = Object.keys(doc.paths).some((p) => /^\/v1\/runs(\/|$)/.test(p));
    if (describesRuns) expect(statusGroups.length).toBeGreaterThan(0);
    // The collector does see enums, including unions of literals (key status, scopes).
    expect(groups).toContainEqual(['active', 'expired', 'revoked']);
  });
});
