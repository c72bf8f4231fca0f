/**
 * What the rehearsal layer (chaos and conduct lines, docs/rehearsal.md) costs a
 * keyed GET when no fault is injected: understudy with `--chaos calm` against the
 * same build without the layer (bench/rehearsal-server.ts), as a ratio of server
 * CPU per request.
 *
 * Measured in pairs, because on a shared machine separate runs differ by more than
 * the few per cent being measured: four servers (two of each) are loaded at the
 * same time, round after round, so a burst of load from elsewhere falls on all of
 * them. Two biases were seen and are cancelled rather than hoped away: a server
 * sharing the cores with the load generator is measured with its noise (so, where
 * `taskset` exists, the servers get one core and this process the other), and among
 * servers loaded together, a server's place in the order the loads start moved its
 * CPU per request by up to 15 % (so the places rotate round by round, and each round
 * compares the geometric mean of the two calm servers with that of the two without).
 * A third was seen and is averaged: one process of a build can run cheaper or dearer
 * than another for its whole life. So there are three sessions with fresh servers, the
 * start order flipped each time, and the figure is the geometric mean of the sessions'
 * median rounds.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { builtProgram, load, log, median, removeDir, row, spawnNode, tempDir, type ReadyChild, type Row } from './helpers.ts';
import { demoKey, endedRun } from './keyed-reads.ts';

/** Sessions, each with four fresh servers: a process's own luck (see above) is averaged over them. */
const SESSIONS = 3;
/** Rounds per session, one per server: every server takes every place in the loads' start order. */
const ROUNDS = 4;
const SECONDS = 2;
const CONNECTIONS = 4;
const TARGET = 1.05;

interface Server {
  calm: boolean;
  child: ReadyChild;
  key: string;
  runId: string;
}

const TARGETS = [
  { name: 'GET /v1/buyer/key', path: () => '/v1/buyer/key' },
  { name: 'GET /v1/runs/{id}', path: (s: Server) => `/v1/runs/${s.runId}` },
  { name: 'GET /v1/public/agents', path: () => '/v1/public/agents' },
];

async function start(dir: string, index: number, calm: boolean): Promise<Server> {
  const child = await spawnNode(builtProgram('rehearsal-server'), ['--store', join(dir, `${index}.json`), ...(calm ? ['--chaos', 'calm'] : ['--no-rehearsal'])]);
  const key = await demoKey(child);
  return { calm, child, key, runId: await endedRun(child.url, key, 'bench-rehearsal-cost') };
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

const geometricMean = (values: number[]) => Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

export async function measureRehearsalCost(): Promise<Row[]> {
  const perSession = TARGETS.map(() => [] as number[]);
  let pinned = true;
  for (let session = 0; session < SESSIONS; session += 1) {
    // Each session has processes of its own, started in the other order from the last one.
    const order = session % 2 === 0 ? [true, false, false, true] : [false, true, true, false];
    const result = await measureSession(order);
    pinned &&= result.pinned;
    result.ratios.forEach((rounds, i) => perSession[i].push(median(rounds)));
  }
  return TARGETS.map((t, i) => {
    const ratio = geometricMean(perSession[i]);
    return row({
      group: 'rehearsal layer',
      name: `${t.name}, --chaos calm ÷ without the layer (server CPU)`,
      value: Number(ratio.toFixed(3)),
      unit: '×',
      target: { text: `≤ ${TARGET}×`, pass: ratio <= TARGET },
      note: `geometric mean of ${SESSIONS} sessions' medians (${ROUNDS} rounds each, 2 servers of each loaded together${pinned ? ' on one core, load on the other' : ', not pinned: no taskset'}): ${perSession[i].map((r) => r.toFixed(3)).join(' ')}`,
    });
  });
}

/** Four fresh servers (true: calm), loaded together ROUNDS times; each round's ratio per target. */
async function measureSession(order: boolean[]): Promise<{ ratios: number[][]; pinned: boolean }> {
  const dir = await tempDir('rehearsal-cost');
  const servers: Server[] = [];
  try {
    for (const [index, calm] of order.entries()) servers.push(await start(dir, index, calm));
    const pinned = pin(process.pid, 0) && servers.every((s) => pin(s.child.child.pid!, 1));
    const loadOf = (s: Server, path: string, seconds: number, measured: boolean) =>
      load({ url: s.child.url + path, headers: { authorization: `Bearer ${s.key}` }, connections: CONNECTIONS, seconds, warmupSeconds: 0, serverPid: measured ? s.child.child.pid : undefined });
    for (const t of TARGETS) await Promise.all(servers.map((s) => loadOf(s, t.path(s), 1, false)));
    const ratios = TARGETS.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, t] of TARGETS.entries()) {
        // The load on the server started first in a round came out cheaper or dearer by its place
        // alone; each round starts from the next server, so every server takes every place.
        const turn = servers.map((_, k) => servers[(k + round) % servers.length]);
        const byTurn = await Promise.all(turn.map((s) => loadOf(s, t.path(s), SECONDS, true)));
        const results = servers.map((s) => byTurn[turn.indexOf(s)]);
        for (const r of results) if (r.non2xx > 0 || r.errors > 0 || r.serverCpuUs === null) throw new Error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        const cpu = (calm: boolean) => geometricMean(results.filter((_, k) => servers[k].calm === calm).map((r) => r.serverCpuUs!));
        ratios[i].push(cpu(true) / cpu(false));
        log(`  ${t.name}, round ${round + 1}: ${cpu(true).toFixed(1)} µs/req with --chaos calm, ${cpu(false).toFixed(1)} without the layer (servers in the order they were started, ${order.map((c) => (c ? 'calm' : 'without')).join('/')}: ${results.map((r) => r.serverCpuUs!.toFixed(1)).join(', ')})`);
      }
    }
    return { ratios, pinned };
  } finally {
    for (const s of servers) await s.child.stop('SIGKILL');
    await removeDir(dir);
  }
}
