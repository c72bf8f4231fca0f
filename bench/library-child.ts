/**
 * The library measurements, in one fresh process (run by bench/library.ts,
 * built like the other child programs): 'understudy' is imported as a user
 * imports it, from the package build (dist/package), and every figure is
 * wall time in this process, alternating with a bare Fastify start so both
 * see the same machine.
 *   first:  the first startUnderstudy() of the process (after its import)
 *   later:  each later start, the simulator stopped before the next
 *   reset:  reset() after one change (a deposit), on one simulator
 *   bare:   Fastify, one route, listening on a free port (first, and later)
 */
import Fastify from 'fastify';

const RUNS = Number(process.argv[2] ?? 30);

async function bareStart(): Promise<number> {
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

const bare: number[] = [];
const later: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  bare.push(await bareStart());
  started = performance.now();
  const understudy = await startUnderstudy();
  later.push(performance.now() - started);
  await understudy.stop();
}

const reset: number[] = [];
const understudy = await startUnderstudy();
for (let i = 0; i < RUNS; i += 1) {
  await understudy.control.deposit(understudy.accounts.evm.id, { profile: 'sim', amountAtomic: '1' });
  started = performance.now();
  await understudy.reset();
  reset.push(performance.now() - started);
}
await understudy.stop();

process.stdout.write(`${JSON.stringify({ importMs, firstMs, bareFirst, bare, later, reset })}\n`);
