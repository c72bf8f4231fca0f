import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { startSimulator, type TestSimulator } from '../helpers/simulator.ts';

/**
 * Spec 9: the description declares every status and header the simulator sends.
 * The test helper checks each answer of a /v1 route against its declaration; these
 * tests show that check failing where it must, and the simulator's own answers
 * that the description used to leave out passing it.
 */

type Json = any;

const ERROR = { error: { code: 'request_rejected', message: 'Nope.' } };
const ANY_ID = '0b8e5ba8-4c67-4c5a-9a0e-3d1f5b2c7e11';

let open: TestSimulator[] = [];
afterEach(async () => {
  const closing = open;
  open = [];
  for (const s of closing) await s.destroy();
});

async function start(options: Parameters<typeof startSimulator>[0] = {}): Promise<TestSimulator> {
  const s = await startSimulator(options);
  open.push(s);
  return s;
}

/** A simulator with extra /v1 routes that misbehave on purpose; they pass through the app's onRoute hooks like any route. */
async function withRoutes(add: (app: FastifyInstance) => void): Promise<TestSimulator> {
  return start({ demo: false, beforeReady: (app) => add(app) });
}

/** Every /v1 route declares how it authenticates (sim/http/plugins/auth.ts); these take no key. */
const KEYLESS = { auth: 'none' as const };

/** A route schema declaring these responses (typed loosely, so a handler may answer any status). */
const declaring = (response: Record<string, object>): FastifySchema => ({ response });

/** Closes a simulator whose destroy() is expected to throw, so afterEach does not close it again. */
async function destroyFailure(s: TestSimulator): Promise<unknown> {
  open = open.filter((other) => other !== s);
  return s.destroy().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the helper check can fail', () => {
  it('request() rejects an answer whose status the route does not declare, naming route and status', async () => {
    const s = await withRoutes((app) => {
      app.get('/v1/outside/teapot', { config: KEYLESS, schema: declaring({ 200: { type: 'object' } }), handler: async (_request, reply) => reply.code(418).send(ERROR) });
    });
    await expect(s.request({ url: '/v1/outside/teapot' })).rejects.toThrow(/GET \/v1\/outside\/teapot \(\/v1\/outside\/teapot\) answered 418, a status it does not declare/);
    expect(s.violations()).toHaveLength(1);
    // Reported once by the call that caused it; destroy() does not report it again.
    expect(await destroyFailure(s)).toBeUndefined();
  });

  it('destroy() rejects when an undeclared answer went out past request() (app.inject, sockets)', async () => {
    const s = await withRoutes((app) => {
      app.post('/v1/outside/teapot', { config: KEYLESS, schema: declaring({ 201: { type: 'object' } }), handler: async (_request, reply) => reply.code(202).send({}) });
    });
    const raw = await s.app.inject({ method: 'POST', url: '/v1/outside/teapot' });
    expect(raw.statusCode).toBe(202);
    const failure = await destroyFailure(s);
    expect(String(failure)).toMatch(/POST \/v1\/outside\/teapot .* answered 202, a status it does not declare/);
  });

  it('a range (4xx) or default declaration covers a status; /sim and unmatched paths are not checked', async () => {
    const s = await withRoutes((app) => {
      app.get('/v1/outside/range', { config: KEYLESS, schema: declaring({ 200: { type: 'object' }, '4xx': { type: 'object' } }), handler: async (_request, reply) => reply.code(418).send(ERROR) });
      app.get('/v1/outside/default', { config: KEYLESS, schema: declaring({ default: { type: 'object' } }), handler: async (_request, reply) => reply.code(299).send({}) });
      app.get('/sim/outside/teapot', { schema: declaring({ 200: { type: 'object' } }), handler: async (_request, reply) => reply.code(418).send(ERROR) });
    });
    expect((await s.request({ url: '/v1/outside/range' })).statusCode).toBe(418);
    expect((await s.request({ url: '/v1/outside/default' })).statusCode).toBe(299);
    expect((await s.request({ url: '/sim/outside/teapot' })).statusCode).toBe(418);
    expect((await s.request({ url: '/v1/outside/nowhere' })).statusCode).toBe(404);
    expect(s.violations()).toEqual([]);
  });

  it('a 429 without Retry-After is caught, though 429 is declared on every /v1 route', async () => {
    const s = await withRoutes((app) => {
      app.get('/v1/outside/busy', { config: KEYLESS, schema: declaring({ 200: { type: 'object' } }), handler: async (_request, reply) => reply.code(429).send(ERROR) });
    });
    await expect(s.request({ url: '/v1/outside/busy' })).rejects.toThrow(/answered 429 without retry-after/);
  });

  it('a header of the API sent but not declared is caught, and so is a declared one not sent', async () => {
    const s = await withRoutes((app) => {
      app.get('/v1/outside/artifact', { config: KEYLESS, schema: declaring({ 200: { type: 'object' } }), handler: async (_request, reply) => reply.header('x-service-artifact-id', ANY_ID).send({}) });
      app.get('/v1/outside/promise', {
        config: KEYLESS,
        schema: { response: { 200: { type: 'object', headers: { 'X-Service-Artifact-Id': { type: 'string' } } } } },
        handler: async () => ({}),
      });
    });
    await expect(s.request({ url: '/v1/outside/artifact' })).rejects.toThrow(/answered 200 with x-service-artifact-id, which its 200 does not declare/);
    await expect(s.request({ url: '/v1/outside/promise' })).rejects.toThrow(/answered 200 without x-service-artifact-id/);
  });

  it('Cache-Control: no-store is due on the answer to a keyed request only (spec 2.1)', async () => {
    const s = await withRoutes((app) => {
      app.get('/v1/outside/keyless', { config: KEYLESS, schema: declaring({ 200: { type: 'object' } }), handler: async () => ({}) });
    });
    const keyless = await s.request({ url: '/v1/outside/keyless' });
    expect(keyless.headers['cache-control']).toBeUndefined();
    const keyed = await s.request({ url: '/v1/outside/keyless', headers: { authorization: 'Bearer whatever' } });
    expect(keyed.headers['cache-control']).toBe('no-store');
  });
});

describe("the simulator's own answers that the description left out", () => {
  /** Every POST operation of the document, with a UUID in place of each path parameter. */
  async function postRoutes(s: TestSimulator): Promise<string[]> {
    const doc: Json = (await s.json({ url: '/v1/openapi.json' })).body;
    return Object.entries(doc.paths as Record<string, Json>)
      .filter(([, item]) => item.post)
      .map(([path]) => path.replace(/\{[^}]+\}/g, ANY_ID));
  }

  it('413 for a body over 262144 bytes and 415 for another content type, on every POST route', async () => {
    const s = await start();
    const key = s.secret('local_custody');
    const urls = await postRoutes(s);
    expect(urls).toEqual(expect.arrayContaining(['/v1/custody/quotes', '/v1/monitors', `/v1/runs/${ANY_ID}/cancel`]));
    const over = JSON.stringify({ padding: 'x'.repeat(262_145) });
    for (const url of urls) {
      const tooLarge = await s.request({ method: 'POST', url, key, body: over, headers: { 'content-type': 'application/json' } });
      expect(tooLarge.statusCode, url).toBe(413);
      const otherType = await s.request({ method: 'POST', url, key, body: 'listingId=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(otherType.statusCode, url).toBe(415);
      expect(otherType.headers['cache-control']).toBe('no-store');
    }
  });

  it('429 with Retry-After on /v1/openapi.json, which the per-address limit covers too', async () => {
    const s = await start({ demo: false, limits: true });
    let answer = await s.request({ url: '/v1/openapi.json' });
    for (let i = 0; i < 200 && answer.statusCode === 200; i++) answer = await s.request({ url: '/v1/openapi.json' });
    expect(answer.statusCode).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
