/**
 * The ceiling: bare Fastify on this machine, started the way understudy is
 * (built by bin/build.js's bundle), one JSON route and nothing else. Prints its
 * ready line first, like `understudy serve`.
 *   node dist/bench/bare-server.js [--port N] [--replay ANSWERS.json]
 * With --replay, it answers a purchase's routes instead (bench/replay-app.ts).
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { replayApp } from './replay-app.ts';

const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const port = Number(flag('--port') ?? 0);
const replay = flag('--replay');

const app = replay ? replayApp(JSON.parse(readFileSync(replay, 'utf8'))) : Fastify({ logger: false });
app.get('/ping', async () => ({ ok: true }));

/** GET /payload/N: a ready-made JSON document of N bytes, for comparing routes with large answers at equal size. */
const payloads = new Map<number, string>();
app.get('/payload/:bytes', async (request, reply) => {
  const bytes = Math.min(1_000_000, Math.max(20, Number((request.params as { bytes: string }).bytes) || 20));
  let body = payloads.get(bytes);
  if (!body) payloads.set(bytes, (body = JSON.stringify({ data: 'x'.repeat(bytes - 11) })));
  return reply.type('application/json; charset=utf-8').send(body);
});

const address = await app.listen({ host: '127.0.0.1', port });
process.stdout.write(`bare fastify listening on http://127.0.0.1:${new URL(address).port}\n`);

const stop = async () => {
  await app.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
