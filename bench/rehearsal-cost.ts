/**
 * What the rehearsal layer (chaos and conduct lines, docs/rehearsal.md) costs a
 * keyed GET when no fault is injected: understudy with `--chaos calm` against the
 * same build without the layer, as a ratio of server CPU per request.
 *
 * The layer's own work is about one per cent of a request's instructions (counted
 * with callgrind), well under what separates two processes of one build here, so
 * the measurement is built around those differences rather than hoping them away:
 *
 * - One process of a build can run 10 to 30 % dearer than another for its whole
 *   life, whichever kind it serves, and with the same profile, only slower
 *   everywhere. So each process holds both kinds (bench/rehearsal-server.ts), and
 *   the figure is a ratio within a process: its luck divides out.
 * - Load from elsewhere on the machine moves every figure by tens of per cent
 *   from one minute to the next. So the processes of a session are loaded at the
 *   same time, on one core (the load generator on the other, where `taskset`
 *   exists), half of them on their calm simulator and half on the other, swapping
 *   round by round, and a process's ratio is the median of its calm rounds over the
 *   median of its other rounds.
 * - Among servers loaded together, the place in the order the loads start moved a
 *   server's CPU per request by up to 15 %: the places rotate, round by round, so
 *   every process takes each place.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { builtProgram, load, log, median, removeDir, row, spawnNode, tempDir, type ReadyChild, type Row } from './helpers.ts';
import { endedRun } from './keyed-reads.ts';

/** Sessions, each with fresh processes. */
const SESSIONS = 2;
/** Processes of a session, each with a calm simulator and one without the layer. */
const PROCESSES = 6;
/** Measured rounds of each kind per process and target. */
const ROUNDS = 6;
const SECONDS = 2;
const CONNECTIONS = 4;
const TARGET = 1.05;

/** One of a process's two simulators. */
interface Simulator {
  url: string;
  key: string;
  runId: string;
}

interface Pair {
  child: ReadyChild;
  calm: Simulator;
  without: Simulator;
}

const TARGETS = [
  { name: 'GET /v1/buyer/key', path: () => '/v1/buyer/key' },
  { name: 'GET /v1/runs/{id}', path: (s: Simulator) => `/v1/runs/${s.runId}` },
  { name: 'GET /v1/public/agents', path: () => '/v1/public/agents' },
];

async function start(dir: string, index: number): Promise<Pair> {
  const child = await spawnNode(builtProgram('rehearsal-server'), ['--store', join(dir, `${index}.json`), '--first', index % 2 === 0 ? 'calm' : 'without']);
  const simulator = async (kind: 'calm' | 'without'): Promise<Simulator> => {
    const pattern = new RegExp(`^${kind} (\\S+) (\\S+)$`, 'm');
    for (let i = 0; i < 100 && !pattern.test(child.stdout()); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const line = pattern.exec(child.stdout());
    if (!line) throw new Error(`the paired server printed no ${kind} line: ${child.stdout()}`);
    return { url: line[1], key: line[2], runId: await endedRun(line[1], line[2], 'bench-rehearsal-cost') };
  };
  return { child, calm: await simulator('calm'), without: await simulator('without') };
}

/** Pins a process to one CPU; false when it could not (no `taskset`, one CPU). */
function pin(pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One session's processes, each with its ratio (calm ÷ without, CPU per request) per target. */
interface Session {
  ratios: number[][];
  pinned: boolean;
}

export async function measureRehearsalCost(): Promise<Row[]> {
  const sessions: Session[] = [];
  for (let session = 0; session < SESSIONS; session += 1) sessions.push(await measureSession());
  const pinned = sessions.every((s) => s.pinned);
  return TARGETS.map((t, i) => {
    const ratios = sessions.flatMap((s) => s.ratios.map((r) => r[i]));
    const ratio = median(ratios);
    const sorted = [...ratios].sort((a, b) => a - b);
    return row({
      group: 'rehearsal layer',
      name: `${t.name}, --chaos calm ÷ without the layer (server CPU)`,
      value: Number(ratio.toFixed(3)),
      unit: '×',
      target: { text: `≤ ${TARGET}×`, pass: ratio <= TARGET },
      note:
        `median of ${ratios.length} processes' ratios, each holding both kinds (${SESSIONS} sessions of ${PROCESSES} loaded together` +
        `${pinned ? ' on one core, load on the other' : ', not pinned: no taskset'}; ${ROUNDS} rounds of each kind); ` +
        `per session ${sessions.map((s) => median(s.ratios.map((r) => r[i])).toFixed(3)).join(' ')}; range ${sorted[0].toFixed(3)}–${sorted[sorted.length - 1].toFixed(3)}`,
    });
  });
}

/** Fresh processes, started together and loaded together round after round, half on each kind. */
async function measureSession(): Promise<Session> {
  const dir = await tempDir('rehearsal-cost');
  const pairs: Pair[] = [];
  try {
    // Started together, so that none waits idle for longer than the others before the load.
    const started = await Promise.allSettled(Array.from({ length: PROCESSES }, (_, index) => start(dir, index)));
    for (const s of started) if (s.status === 'fulfilled') pairs.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const pinned = pin(process.pid, 0) && pairs.every((p) => pin(p.child.child.pid!, 1));
    const loadOf = (p: Pair, simulator: Simulator, path: string, measured: boolean) =>
      load({ url: simulator.url + path, headers: { authorization: `Bearer ${simulator.key}` }, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 0, serverPid: measured ? p.child.child.pid : undefined });
    // In a round, half the processes serve their calm simulator and half the other. A process
    // swaps kinds every other round (calm, without, without, calm, ...: a drift over the session
    // weighs on both kinds alike), and each place in the order takes each kind as often.
    const kindOf = (k: number, round: number) => ((k + round + Math.floor(round / 2)) % 2 === 0 ? 'calm' : 'without');
    // The load on the process started first in a round came out cheaper or dearer by its place
    // alone; each round starts from the next process, so every process takes every place.
    const turn = (round: number) => pairs.map((_, k) => (k + round) % pairs.length);
    for (const t of TARGETS) {
      for (const round of [0, 1]) await Promise.all(turn(round).map((k) => loadOf(pairs[k], pairs[k][kindOf(k, round)], t.path(pairs[k][kindOf(k, round)]), false)));
    }
    const rounds = pairs.map(() => TARGETS.map(() => ({ calm: [] as number[], without: [] as number[] })));
    for (let round = 0; round < 2 * ROUNDS; round += 1) {
      for (const [i, t] of TARGETS.entries()) {
        const loaded = turn(round);
        const results = await Promise.all(loaded.map((k) => loadOf(pairs[k], pairs[k][kindOf(k, round)], t.path(pairs[k][kindOf(k, round)]), true)));
        for (const [j, r] of results.entries()) {
          if (r.non2xx > 0 || r.errors > 0 || r.serverCpuUs === null) throw new Error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          rounds[loaded[j]][i][kindOf(loaded[j], round)].push(r.serverCpuUs);
        }
      }
    }
    const ratios = rounds.map((targets) => targets.map((r) => median(r.calm) / median(r.without)));
    for (const [i, t] of TARGETS.entries()) {
      const us = (kind: 'calm' | 'without') => rounds.map((targets) => median(targets[i][kind]).toFixed(1)).join(' ');
      log(`  ${t.name}: µs/req per process, calm ${us('calm')}; without ${us('without')}; ratios ${ratios.map((r) => r[i].toFixed(3)).join(' ')}`);
    }
    return { ratios, pinned };
  } finally {
    for (const p of pairs) await p.child.stop('SIGKILL');
    await removeDir(dir);
  }
}
