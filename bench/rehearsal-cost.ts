/**
 * What the rehearsal layer (chaos and conduct lines, docs/rehearsal.md) costs a
 * keyed GET when no fault is injected: understudy with `--chaos calm` against the
 * same build without the layer (bench/rehearsal-server.ts), as a ratio of server
 * CPU per request.
 *
 * The layer's own work is a few hundred nanoseconds of a request's tens of
 * microseconds, well under what separates two processes of one build here, so
 * the measurement is built around those differences rather than hoping them away:
 *
 * - Load from elsewhere on the machine moves every figure by tens of per cent
 *   from one minute to the next. So the servers of a session (three of each kind)
 *   are loaded at the same time, on one core (the load generator on the other,
 *   where `taskset` exists), and each is compared with the others of its session.
 * - Among servers loaded together, the place in the order the loads start moved a
 *   server's CPU per request by up to 15 %: the places rotate, round by round, so
 *   every server takes each place once.
 * - One process of a build can run 10 to 30 % dearer than another for its whole
 *   life, in either kind (profiled with `perf`: V8 left one of Node's own hot
 *   paths, the object literal behind process.nextTick, on its slow runtime path).
 *   So there are many processes, started together, and the figure is a ratio of
 *   medians over all of them: a dear process of either kind does not carry it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { builtProgram, load, log, median, removeDir, row, spawnNode, tempDir, type ReadyChild, type Row } from './helpers.ts';
import { demoKey, endedRun } from './keyed-reads.ts';

/** Sessions, each with fresh servers. */
const SESSIONS = 4;
/** Servers of each kind in a session. */
const PER_KIND = 3;
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

/** One session's servers, each with its CPU per request (µs, the median of its rounds) per target. */
interface Session {
  servers: { calm: boolean; cpuUs: number[] }[];
  pinned: boolean;
}

export async function measureRehearsalCost(): Promise<Row[]> {
  const sessions: Session[] = [];
  for (let session = 0; session < SESSIONS; session += 1) {
    // The kinds alternate in the order the servers are started, beginning with the other kind each session.
    const order = Array.from({ length: 2 * PER_KIND }, (_, k) => (k + session) % 2 === 0);
    sessions.push(await measureSession(order));
  }
  const pinned = sessions.every((s) => s.pinned);
  return TARGETS.map((t, i) => {
    // Each server's figure relative to its session's median: what the session's minutes had in common is divided out.
    const relative = (calm: boolean) =>
      sessions.flatMap((s) => {
        const middle = median(s.servers.map((server) => server.cpuUs[i]));
        return s.servers.filter((server) => server.calm === calm).map((server) => server.cpuUs[i] / middle);
      });
    const calm = relative(true);
    const without = relative(false);
    const ratio = median(calm) / median(without);
    // A dear process: 10 % or more above its session's median; counted per kind, to see whether the layer makes them.
    const dear = (values: number[]) => values.filter((v) => v >= 1.1).length;
    const perSession = sessions.map((s) => {
      const of = (c: boolean) => median(s.servers.filter((server) => server.calm === c).map((server) => server.cpuUs[i]));
      return (of(true) / of(false)).toFixed(3);
    });
    return row({
      group: 'rehearsal layer',
      name: `${t.name}, --chaos calm ÷ without the layer (server CPU)`,
      value: Number(ratio.toFixed(3)),
      unit: '×',
      target: { text: `≤ ${TARGET}×`, pass: ratio <= TARGET },
      note:
        `median of ${calm.length} calm servers ÷ median of ${without.length} without, each relative to its session (${SESSIONS} sessions of ${2 * PER_KIND} loaded together` +
        `${pinned ? ' on one core, load on the other' : ', not pinned: no taskset'}); per session ${perSession.join(' ')}; dear processes (≥ 1.1× their session) calm ${dear(calm)}, without ${dear(without)}`,
    });
  });
}

/** Fresh servers (true: calm), started together and loaded together round after round. */
async function measureSession(order: boolean[]): Promise<Session> {
  const dir = await tempDir('rehearsal-cost');
  const servers: Server[] = [];
  try {
    // Started together, so that none waits idle for longer than the others before the load.
    const started = await Promise.allSettled(order.map((calm, index) => start(dir, index, calm)));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const pinned = pin(process.pid, 0) && servers.every((s) => pin(s.child.child.pid!, 1));
    const loadOf = (s: Server, path: string, measured: boolean) =>
      load({ url: s.child.url + path, headers: { authorization: `Bearer ${s.key}` }, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 0, serverPid: measured ? s.child.child.pid : undefined });
    // The load on the server started first in a round came out cheaper or dearer by its place
    // alone; each round starts from the next server, so every server takes every place.
    const turn = (round: number) => servers.map((_, k) => servers[(k + round) % servers.length]);
    for (const [i, t] of TARGETS.entries()) await Promise.all(turn(i).map((s) => loadOf(s, t.path(s), false)));
    const rounds = servers.map(() => TARGETS.map(() => [] as number[]));
    for (let round = 0; round < servers.length; round += 1) {
      for (const [i, t] of TARGETS.entries()) {
        const loaded = turn(round);
        const results = await Promise.all(loaded.map((s) => loadOf(s, t.path(s), true)));
        for (const [k, r] of results.entries()) {
          if (r.non2xx > 0 || r.errors > 0 || r.serverCpuUs === null) throw new Error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          rounds[servers.indexOf(loaded[k])][i].push(r.serverCpuUs);
        }
      }
    }
    const measured = servers.map((s, k) => ({ calm: s.calm, cpuUs: rounds[k].map((values) => median(values)) }));
    for (const [i, t] of TARGETS.entries()) {
      log(`  ${t.name}: µs/req per server, in the order started: ${measured.map((s) => `${s.calm ? 'calm' : 'without'} ${s.cpuUs[i].toFixed(1)}`).join(', ')}`);
    }
    return { servers: measured, pinned };
  } finally {
    for (const s of servers) await s.child.stop('SIGKILL');
    await removeDir(dir);
  }
}
