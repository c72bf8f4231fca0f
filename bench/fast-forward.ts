/**
 * Clock fast-forward: a simulator (buildSimulator, limits off, frozen clock,
 * on a real port) with 5 active monitors (3 on base, 2 on ethereum, each an
 * erc20-transfer rule on its own token, 30-day duration, the largest budgets
 * the API accepts) and one chain script of 10,000 entries of one Transfer log
 * each, spread evenly over the 30 days across the 5 tokens. Timed: the wall
 * time of POST /sim/clock/advance {seconds: 2592000}, from sending it to the
 * whole answer (every due job run and the journal on disk). Each size runs in
 * a child process of its own (a fresh heap), built like the CLI (so the
 * simulator runs as `npm run serve` runs it), stopped at DEADLINE_MS;
 * `npm run bench -- growth` measures 100,000 logs too.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSimulator } from '../sim/app.ts';
import { createAccount } from '../sim/domain/ledger/index.ts';
import { scheduleChainScript, type ChainScript } from '../sim/domain/chains/index.ts';
import { createMonitor } from '../sim/domain/chains/index.ts';
import { builtProgram, expectStatus, log, removeDir, request, row, runNode, tempDir, type Row } from './helpers.ts';

export const DAYS = 30;
export const SECONDS = DAYS * 86_400;
export const LOGS = 10_000;
export const TARGET_MS = 1_000;
/** The phase's bound: a slower fast-forward is stopped and reported as over it. */
export const DEADLINE_MS = 60_000;

/** Three tokens on base, two on ethereum; monitor k watches token k. */
const WATCHED = [
  { chain: 'base', token: `0x${'a1'.repeat(20)}`, windowBlocks: 200 },
  { chain: 'base', token: `0x${'a2'.repeat(20)}`, windowBlocks: 200 },
  { chain: 'base', token: `0x${'a3'.repeat(20)}`, windowBlocks: 200 },
  { chain: 'ethereum', token: `0x${'e1'.repeat(20)}`, windowBlocks: 50 },
  { chain: 'ethereum', token: `0x${'e2'.repeat(20)}`, windowBlocks: 50 },
];

export function benchScript(logs: number): ChainScript {
  const spacing = SECONDS / logs;
  return {
    description: `${logs} Transfer logs over ${DAYS} days`,
    entries: Array.from({ length: logs }, (_, i) => {
      const watched = WATCHED[i % WATCHED.length];
      const from = `0x${(i % 97).toString(16).padStart(40, '0')}`;
      const to = `0x${((i * 7) % 89).toString(16).padStart(40, 'f')}`;
      return { afterSeconds: (i + 0.5) * spacing, chain: watched.chain, logs: [{ address: watched.token, event: 'Transfer', args: { from, to, value: String(1_000 + i) } }] };
    }),
  };
}

export interface FastForward {
  logs: number;
  wallMs: number;
  /** CPU time of the child (simulator and its client, main and helper threads) over the same span: steadier than wall time on a shared machine. */
  cpuMs: number;
  processedJobs: number;
  events: number;
  monitors: string[];
}

/** Runs the measurement in a child process of its own (a fresh heap), at most DEADLINE_MS. */
export async function measureFastForward(logs = LOGS, deadlineMs = DEADLINE_MS): Promise<FastForward> {
  // The directory is this process's, so it is removed even when the child is stopped.
  const dir = await tempDir('fast-forward');
  try {
    // Built like the CLI (helpers.ts buildServers), as the simulator runs when started by `npm run serve`.
    return await runNode<FastForward>(builtProgram('fast-forward'), ['--child', String(logs), dir], { timeoutMs: deadlineMs });
  } catch (error) {
    if (!/SIGKILL/.test((error as Error).message)) throw error;
    log(`fast-forward with ${logs} logs: stopped after ${deadlineMs} ms`);
    return { logs, wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY, processedJobs: 0, events: 0, monitors: [] };
  } finally {
    await removeDir(dir);
  }
}

async function fastForwardHere(logs: number, dir: string): Promise<FastForward> {
  const built = await buildSimulator({ storePath: join(dir, 'store.json'), clock: 'frozen', limits: false, seed: 'bench' });
  try {
    const deps = built.sim.deps;
    const account = createAccount(deps, { type: 'evm', label: 'monitor owner' });
    WATCHED.forEach((w, k) => {
      createMonitor(deps, { kind: 'owner', accountId: account.id }, {
        name: `transfers of token ${k}`,
        chain: w.chain,
        rules: [{ id: 'transfers', type: 'erc20-transfer', token: w.token }],
        durationSeconds: SECONDS,
        tickBudget: 10_000,
        rpcBudget: 100_000,
        windowBlocks: w.windowBlocks,
        idempotencyKey: `bench-monitor-${k}`,
      });
    });
    scheduleChainScript(deps, 'bench', benchScript(logs));
    await deps.store.flush();
    const url = await built.app.listen({ host: '127.0.0.1', port: 0 });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const answer = await request(`${url}/sim/clock/advance`, { method: 'POST', body: { seconds: SECONDS } });
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    expectStatus(answer, 200, 'advance');
    const monitors = deps.store.all('monitors').map((m) => `${m.status} ${m.eventCount} events, ${m.ticksUsed} ticks`);
    const events = deps.store.count('monitorEvents');
    if (events !== logs) throw new Error(`expected ${logs} monitor events, found ${events}: ${monitors.join('; ')}`);
    const result = { logs, wallMs, cpuMs, processedJobs: (answer.body.processed as unknown[]).length, events, monitors };
    log(`fast-forward ${DAYS} days, ${logs} logs: ${Math.round(wallMs)} ms (CPU ${Math.round(cpuMs)} ms), ${result.processedJobs} jobs, ${events} events; monitors: ${monitors.join('; ')}`);
    return result;
  } finally {
    await built.close();
  }
}

export function fastForwardRows(r: FastForward): Row[] {
  return [
    row({
      group: 'headline',
      name: `month of monitors: advance ${DAYS} days, 5 monitors, ${r.logs} logs`,
      value: r.wallMs,
      unit: 'ms',
      target: { text: `≤ ${TARGET_MS} ms`, pass: r.wallMs <= TARGET_MS },
      note: Number.isFinite(r.wallMs) ? `${r.processedJobs} jobs run, ${r.events} monitor events, CPU ${Math.round(r.cpuMs)} ms` : `stopped after ${DEADLINE_MS} ms`,
    }),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') {
  const result = await fastForwardHere(Number(process.argv[3]), process.argv[4]);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
