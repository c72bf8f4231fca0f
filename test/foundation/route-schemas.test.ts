import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifySchemaCompiler, type RouteOptions } from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { registerRoutes } from '../../sim/http/routes/index.ts';
import { drillRoutes } from '../../sim/drill/index.ts';
import { lazyValidators } from '../../sim/http/plugins/validation.ts';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * The simulator compiles a route's validators and serializers on the route's first
 * request, not at start-up, so a schema that cannot compile would otherwise go
 * unnoticed until someone calls that route. Every one is compiled here.
 */

const PARTS = ['body', 'querystring', 'params', 'headers'] as const;

let s: TestSimulator;
let routes: RouteOptions[];

beforeAll(async () => {
  s = await startSimulator();
  // The declarations only, from the same registerRoutes the app uses.
  const recorder = Fastify();
  routes = [];
  recorder.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  recorder.setValidatorCompiler(() => () => true);
  recorder.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerRoutes(recorder, s.services, s.sim);
  drillRoutes(recorder, s.drill, (runId) => s.services.runs.money(runId));
  await recorder.ready();
  await recorder.close();
});
afterAll(async () => {
  await s?.destroy();
});

describe('route schemas', () => {
  it('every request schema compiles to a validator', () => {
    const compiler = (lazyValidators() as unknown as () => FastifySchemaCompiler<unknown>)();
    let compiled = 0;
    for (const route of routes) {
      for (const httpPart of PARTS) {
        const schema = (route.schema as Record<string, unknown> | undefined)?.[httpPart];
        if (schema === undefined) continue;
        const validate = compiler({ schema, httpPart, method: String(route.method), url: route.url });
        // The first call compiles; a schema ajv refuses throws here.
        expect(() => validate({}), `${String(route.method)} ${route.url} ${httpPart}`).not.toThrow();
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(50);
  });

  it('every request schema is valid JSON Schema (ajv does not check them against the meta-schema in service)', () => {
    const ajv = new Ajv.default({ strict: false });
    let checked = 0;
    for (const route of routes) {
      for (const httpPart of PARTS) {
        const schema = (route.schema as Record<string, unknown> | undefined)?.[httpPart];
        if (schema === undefined) continue;
        expect(ajv.validateSchema(schema as object), `${String(route.method)} ${route.url} ${httpPart}: ${ajv.errorsText()}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
    // The check itself catches a schema that breaks the meta-schema.
    expect(ajv.validateSchema({ type: 'object', properties: { amountAtomic: { type: 'integer-string' } } })).toBe(false);
  });

  it('every response schema compiles to a serializer', () => {
    // What the app's lazy serializers build on first use: Fastify's own compiler, with the shared schemas.
    const compile = SerializerSelector()(s.app.getSchemas(), {});
    let compiled = 0;
    for (const route of routes) {
      const responses = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
      for (const [httpStatus, schema] of Object.entries(responses)) {
        expect(() => compile({ schema, method: String(route.method), url: route.url, httpStatus }), `${String(route.method)} ${route.url} ${httpStatus}`).not.toThrow();
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });
});
