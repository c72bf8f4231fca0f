/**
 * Clock fast-forward: a simulator (buildSimulator, limits off, frozen clock,
 * on a real port) with 5 active monitors (3 on base, 2 on ethereum, each an
 * erc20-transfer rule on its own token, 30-day duration, the largest budgets
 * the API accepts, each with a webhookUrl at a local receiver) and one chain
 * script of 10,000 entries of one Transfer log each, spread evenly over the 30
 * days across the 5 tokens: 10,000 monitor events, each a signed delivery.
 * Timed: the wall time of POST /sim/clock/advance {seconds: 2592000}, from
 * sending it to the whole answer (every due job run, every delivery answered
 * by the receiver, and the journal on disk). The baseline, in the same child
 * after the advance: the same deliveries' bodies, signed, sent to the same
 * receiver one after another by the simulator's own sender, which is what the
 * deliveries alone cost when each waits for the one before (as they do when
 * each is due at its own instant). The same month with no webhookUrl is
 * measured too, for information. The receiver runs in the benchmark's process
 * (receiver.ts); each measurement runs in a child process of its own (a fresh
 * heap), built like the CLI (so the simulator runs as `npm run serve` runs
 * it), stopped at DEADLINE_MS; `npm run bench -- growth` measures 100,000 logs
 * too.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSimulator } from '../sim/app.ts';
import type { Deps } from '../sim/domain/context.ts';
import type { WebhookSender } from '../sim/runtime/webhook-sender.ts';
import { createAccount } from '../sim/domain/ledger/index.ts';
import { scheduleChainScript, type ChainScript } from '../sim/domain/chains/index.ts';
import { createMonitor } from '../sim/domain/chains/index.ts';
import { signedHeaders } from '../sim/domain/deliveries/index.ts';
import { builtProgram, expectStatus, log, removeDir, request, row, runNode, tempDir, type Row } from './helpers.ts';
import { startReceiver } from './receiver.ts';

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
  /** Whether the monitors delivered to a receiver. */
  delivering: boolean;
  wallMs: number;
  /** CPU time of the child (simulator and its client, main and helper threads) over the same span: steadier than wall time on a shared machine. */
  cpuMs: number;
  processedJobs: number;
  events: number;
  /** Deliveries the receiver answered during the advance. */
  deliveries: number;
  /** The baseline: the same signed bodies sent to the receiver one after another (null without a receiver). */
  floorMs: number | null;
  monitors: string[];
}

/** Runs the measurement in a child process of its own (a fresh heap), at most DEADLINE_MS; deliveries go to a receiver here unless `delivering` is false. */
export async function measureFastForward(logs = LOGS, deadlineMs = DEADLINE_MS, delivering = true): Promise<FastForward> {
  // The directory is this process's, so it is removed even when the child is stopped.
  const dir = await tempDir('fast-forward');
  const receiver = delivering ? await startReceiver() : null;
  try {
    // Built like the CLI (helpers.ts buildServers), as the simulator runs when started by `npm run serve`.
    const result = await runNode<FastForward>(builtProgram('fast-forward'), ['--child', String(logs), dir, receiver?.url ?? 'none'], { timeoutMs: deadlineMs });
    // The floor sent each body once more: the advance's share is what the receiver had before it.
    const received = receiver ? receiver.deliveries() - result.events : 0;
    if (receiver && received !== result.events) throw new Error(`the receiver got ${received} deliveries during the advance, not ${result.events}`);
    return { ...result, deliveries: received };
  } catch (error) {
    if (!/SIGKILL/.test((error as Error).message)) throw error;
    log(`fast-forward with ${logs} logs: stopped after ${deadlineMs} ms`);
    return { logs, delivering, wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY, processedJobs: 0, events: 0, deliveries: 0, floorMs: null, monitors: [] };
  } finally {
    await receiver?.close();
    await removeDir(dir);
  }
}

async function fastForwardHere(logs: number, dir: string, receiverUrl: string | null): Promise<FastForward> {
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
        ...(receiverUrl ? { webhookUrl: receiverUrl } : {}),
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
    const floorMs = receiverUrl ? await sendAgain(built.sim.deps, built.sim.send, receiverUrl) : null;
    const result = { logs, delivering: receiverUrl !== null, wallMs, cpuMs, processedJobs: (answer.body.processed as unknown[]).length, events, deliveries: 0, floorMs, monitors };
    log(`fast-forward ${DAYS} days, ${logs} logs${receiverUrl ? ', delivering' : ''}: ${Math.round(wallMs)} ms (CPU ${Math.round(cpuMs)} ms), ${result.processedJobs} jobs, ${events} events; monitors: ${monitors.join('; ')}${floorMs === null ? '' : `; the deliveries sent again: ${Math.round(floorMs)} ms`}`);
    return result;
  } finally {
    await built.close();
  }
}

/** Every delivery's stored body, signed as its attempt was, sent to the receiver one after another: the baseline. */
async function sendAgain(deps: Deps, send: WebhookSender, url: string): Promise<number> {
  const deliveries = [...deps.store.idsOf('deliveries')].map((id) => deps.store.get('deliveries', id)!);
  const started = performance.now();
  for (const d of deliveries) {
    const answer = await send({ url, headers: signedHeaders(deps, 'whsec_bench', d.id, d.body), body: d.body, timeoutMs: 5_000, addressPolicy: () => null });
    if (answer.kind !== 'answered' || answer.status !== 200) throw new Error(`the receiver did not take delivery ${d.id} again: ${JSON.stringify(answer)}`);
  }
  return performance.now() - started;
}

export function fastForwardRows(delivering: FastForward, quiet: FastForward): Row[] {
  const stopped = `stopped after ${DEADLINE_MS} ms`;
  const jobs = (r: FastForward) => `${r.processedJobs} jobs run, ${r.events} monitor events, CPU ${Math.round(r.cpuMs)} ms`;
  return [
    row({
      group: 'headline',
      name: `month of monitors: advance ${DAYS} days, 5 monitors, ${delivering.logs} logs, deliveries to a local receiver`,
      value: delivering.wallMs,
      unit: 'ms',
      ...(delivering.floorMs === null ? {} : { baseline: { name: `the ${delivering.deliveries} signed bodies sent again, one at a time`, value: delivering.floorMs } }),
      target: { text: `≤ ${TARGET_MS} ms`, pass: delivering.wallMs <= TARGET_MS },
      note: Number.isFinite(delivering.wallMs) ? `${jobs(delivering)}, ${delivering.deliveries} deliveries answered` : stopped,
    }),
    row({
      group: 'month',
      name: `month of monitors with no receiver (no webhookUrl), ${quiet.logs} logs`,
      value: quiet.wallMs,
      unit: 'ms',
      note: Number.isFinite(quiet.wallMs) ? `for information: what the month costs without its deliveries; ${jobs(quiet)}` : stopped,
    }),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') {
  const result = await fastForwardHere(Number(process.argv[3]), process.argv[4], process.argv[5] === 'none' ? null : process.argv[5]);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
