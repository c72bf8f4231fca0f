/**
 * The purchase mix: CLIENTS closed-loop clients, each on accounts and keys of its
 * own (so no account's run or spend limit refuses), each repeating the polite
 * purchase (bench/purchase.ts) against `understudy serve --limits off --clock frozen`.
 * Each run is scripted to end after a second and each purchase moves the clock
 * ADVANCE_SECONDS: a quote lives 240 s, and while one client is between its quote and
 * its acceptance the others can advance the clock at most once each (3 × 60 s), so no
 * live quote expires; an account buys again only after the other purchases of every
 * client (CLIENTS × ACCOUNTS_PER_CLIENT × 60 s = 80 min), inside spec 8's 20 runs a day.
 * Baseline: bare Fastify replaying the bodies heard from understudy for the same
 * requests (bench/replay-app.ts), driven by the same clients. Rounds alternate
 * (understudy, replay, replay, understudy); each kind's best round counts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BARE_SERVER, log, median, processCpuMs, removeDir, row, serveSimulator, spawnNode, tempDir, type ReadyChild, type Row } from './helpers.ts';
import { makeBuyer, purchase, type Buyer, type PurchaseOptions } from './purchase.ts';
import type { HeardAnswer } from './replay-app.ts';

const CLIENTS = 4;
const ACCOUNTS_PER_CLIENT = 20;
const ADVANCE_SECONDS = 60;
const ROUNDS = 2;
const ROUND_SECONDS = 4;
const WARMUP_SECONDS = 2;
const TARGET = 0.5;
const OPTIONS: PurchaseOptions = { shortRun: true, advanceSeconds: ADVANCE_SECONDS };

interface Round {
  perSecond: number;
  cpuUs: number;
}

/** Every client buying in a closed loop for `seconds`: purchases per second and server CPU per purchase. */
async function round(server: ReadyChild, buyers: Buyer[], seconds: number): Promise<Round> {
  const pid = server.child.pid;
  const cpuBefore = await processCpuMs(pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  let count = 0;
  await Promise.all(
    buyers.map(async (buyer) => {
      while (performance.now() < until) {
        await purchase(buyer, OPTIONS);
        count += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await processCpuMs(pid);
  return { perSecond: count / elapsed, cpuUs: cpuBefore === null || cpuAfter === null ? Number.NaN : ((cpuAfter - cpuBefore) * 1000) / count };
}

export async function measurePurchaseMix(): Promise<Row[]> {
  const dir = await tempDir('purchase-mix');
  const servers: ReadyChild[] = [];
  try {
    const sim = await serveSimulator(join(dir, 'store.json'));
    servers.push(sim);
    const buyers: Buyer[] = [];
    for (let i = 0; i < CLIENTS; i += 1) buyers.push(await makeBuyer(sim.url, ACCOUNTS_PER_CLIENT));
    const heard: HeardAnswer[] = [];
    await purchase(buyers[0], { ...OPTIONS, heard: (method, route, status, body) => heard.push({ method, route, status, body }) });
    const answers = join(dir, 'answers.json');
    await writeFile(answers, JSON.stringify(heard));
    const bare = await spawnNode(BARE_SERVER, ['--replay', answers]);
    servers.push(bare);
    const replayBuyers = buyers.map((b) => ({ url: bare.url, keys: b.keys, next: 0 }));
    const kinds = { understudy: { server: sim, buyers }, replay: { server: bare, buyers: replayBuyers } };
    for (const k of Object.values(kinds)) await round(k.server, k.buyers, WARMUP_SECONDS);
    const results: Record<keyof typeof kinds, Round[]> = { understudy: [], replay: [] };
    for (let i = 0; i < 2 * ROUNDS; i += 1) {
      const kind = (i % 4 === 0 || i % 4 === 3) ? 'understudy' : 'replay';
      const r = await round(kinds[kind].server, kinds[kind].buyers, ROUND_SECONDS);
      log(`  purchase mix, ${kind}: ${r.perSecond.toFixed(1)} purchases/s, server CPU ${r.cpuUs.toFixed(0)} µs per purchase`);
      results[kind].push(r);
    }
    const best = (rs: Round[]) => Math.max(...rs.map((r) => r.perSecond));
    const u = best(results.understudy);
    const b = best(results.replay);
    const uCpu = median(results.understudy.map((r) => r.cpuUs));
    const bCpu = median(results.replay.map((r) => r.cpuUs));
    return [
      row({
        group: 'headline',
        name: `purchase mix: ${CLIENTS} clients, purchases/s`,
        value: Number(u.toFixed(1)),
        unit: 'purchases/s',
        baseline: { name: 'bare Fastify replaying the bodies', value: Number(b.toFixed(1)) },
        target: { text: `≥ ${TARGET}× the replay`, pass: u / b >= TARGET },
        note: `best of ${ROUNDS} rounds of ${ROUND_SECONDS} s each; server CPU per purchase ${(uCpu / 1000).toFixed(2)} ms (replay ${(bCpu / 1000).toFixed(2)} ms, ${(uCpu / bCpu).toFixed(1)}×)`,
      }),
    ];
  } finally {
    // SIGTERM: a clean stop, so BENCH_CPU_PROF's profiles are written.
    for (const s of servers) await s.stop();
    await removeDir(dir);
  }
}
