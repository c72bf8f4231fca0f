/**
 * The library measurements, in one fresh process (copied by bench/library.ts
 * into the project where the packed tarball is installed, and run there; plain
 * JavaScript, so that nothing bundles 'understudy' into it): 'understudy' is
 * imported as a user imports it, from node_modules, and every figure is
 * wall time in this process, alternating with a bare Fastify start so both
 * see the same machine.
 *   first:  the first startUnderstudy() of the process (after its import)
 *   later:  each later start, the simulator stopped before the next
 *   reset:  reset() after one change (a deposit), on one simulator
 *   bare:   Fastify, one route, listening on a free port (first, and later)
 */
import Fastify from 'fastify';

const RUNS = Number(process.argv[2] ?? 30);

async function bareStart() {
  const started = performance.now();
  const app = Fastify({ logger: false });
  app.get('/ping', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const ms = performance.now() - started;
  await app.close();
  return ms;
}

const importStarted = performance.now();
const { startUnderstudy } = await import('understudy');
const importMs = performance.now() - importStarted;

const bareFirst = await bareStart();
let started = performance.now();
const first = await startUnderstudy();
const firstMs = performance.now() - started;
await first.stop();

const bare = [];
const later = [];
for (let i = 0; i < RUNS; i += 1) {
  bare.push(await bareStart());
  started = performance.now();
  const understudy = await startUnderstudy();
  later.push(performance.now() - started);
  await understudy.stop();
}

const reset = [];
const understudy = await startUnderstudy();
for (let i = 0; i < RUNS; i += 1) {
  await understudy.control.deposit(understudy.accounts.evm.id, { profile: 'sim', amountAtomic: '1' });
  started = performance.now();
  await understudy.reset();
  reset.push(performance.now() - started);
}
await understudy.stop();

process.stdout.write(`${JSON.stringify({ importMs, firstMs, bareFirst, bare, later, reset })}\n`);
