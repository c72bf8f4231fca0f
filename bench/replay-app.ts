/**
 * What a stateless mock of the service costs: bare Fastify answering each route a
 * purchase uses with a body heard from understudy (bench/purchase.ts `heard`), the
 * last one heard per route, serialized once. No hooks, no schemas, no state. Used by
 * the purchase mix (bench/bare-server.ts --replay) and by the user's test suite
 * (bench/user-suite/purchases.test.ts) as their baseline.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export interface HeardAnswer {
  method: string;
  route: string;
  status: number;
  body: unknown;
}

export function replayApp(answers: HeardAnswer[]): FastifyInstance {
  const app = Fastify({ logger: false });
  const last = new Map<string, HeardAnswer>();
  for (const answer of answers) last.set(`${answer.method} ${answer.route}`, answer);
  for (const { method, route, status, body } of last.values()) {
    const text = JSON.stringify(body);
    app.route({ method: method as 'GET' | 'POST', url: route, handler: (_request, reply) => reply.code(status).type('application/json; charset=utf-8').send(text) });
  }
  return app;
}
