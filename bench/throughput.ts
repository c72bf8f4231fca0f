/**
 * Keyed GETs against the bare Fastify ceiling, over a real port. Each server
 * runs in its own child process (one core); autocannon drives it from this
 * process (the other core).
 *   - throughput and p50/p99 with 10 connections: the ceiling's GET /ping, then
 *     understudy's GET /v1/buyer/key, GET /v1/runs/{id} (an ended run with its
 *     report and events) and GET /v1/public/agents (first page), all with the key;
 *     for information, bare Fastify sending a ready-made body of the agents
 *     page's size (what the payload alone costs);
 *   - p50 with one connection: the ceiling, and GET /v1/buyer/key.
 * understudy runs as `understudy serve --limits off --clock frozen` on a new store.
 * Both servers are up together and the targets are measured in interleaved
 * rounds; each figure is its best round, so a burst of load from elsewhere on
 * the machine in one window does not decide it.
 */
import { join } from 'node:path';
import { load, log, removeDir, request, row, serveBare, serveSimulator, tempDir, type LoadResult, type ReadyChild, type Row } from './helpers.ts';
import { demoKey, endedRun } from './keyed-reads.ts';

export const CONNECTIONS = 10;
// Short: these rows are for information (the headline rows are what users wait on).
const ROUNDS = 1;
const SECONDS = 1.5;
const SINGLE_SECONDS = 1;
const WARMUP_SECONDS = 0.5;

const GROUP = 'keyed GETs';

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  serverPid?: number;
}

const cpu = (r: LoadResult) => (r.serverCpuUs === null ? 'n/a' : `${r.serverCpuUs.toFixed(0)} µs/req`);

function checked(name: string, result: LoadResult): LoadResult {
  if (result.non2xx > 0 || result.errors > 0 || result.requests === 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors in ${result.requests} requests`);
  }
  log(`  ${name}: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(3)} ms, p99 ${result.p99.toFixed(3)} ms, server CPU ${cpu(result)}`);
  return result;
}

/** Warms every target up, then measures them in ROUNDS interleaved rounds; keeps each target's best round. */
async function interleaved(targets: Target[], connections: number, seconds: number, better: (a: LoadResult, b: LoadResult) => boolean): Promise<LoadResult[]> {
  for (const t of targets) await load({ url: t.url, headers: t.headers, connections, seconds: WARMUP_SECONDS, warmupSeconds: 0 });
  const best: Array<LoadResult | null> = targets.map(() => null);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, t] of targets.entries()) {
      const result = checked(`${t.name}, ${connections} conn, round ${round + 1}`, await load({ url: t.url, headers: t.headers, connections, seconds, warmupSeconds: 0, serverPid: t.serverPid }));
      if (best[i] === null || better(result, best[i]!)) best[i] = result;
    }
  }
  return best as LoadResult[];
}

function notes(r: LoadResult, ceiling?: LoadResult): string {
  const cpuRatio = ceiling?.serverCpuUs && r.serverCpuUs ? ` (${(r.serverCpuUs / ceiling.serverCpuUs).toFixed(1)}× bare)` : '';
  return `p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms; server CPU ${cpu(r)}${cpuRatio}`;
}

export async function measureThroughput(): Promise<Row[]> {
  const dir = await tempDir('throughput');
  const bare = await serveBare();
  let server: ReadyChild | null = null;
  try {
    // BENCH_SERVE_ARGS adds serve flags (e.g. '--chaos calm', to measure the chaos hooks' cost).
    server = await serveSimulator(join(dir, 'store.json'), (process.env.BENCH_SERVE_ARGS ?? '').split(' ').filter(Boolean));
    const key = await demoKey(server);
    const runId = await endedRun(server.url, key, 'bench-read-run');
    const headers = { authorization: `Bearer ${key}` };
    const agentsBytes = Buffer.byteLength(JSON.stringify((await request(`${server.url}/v1/public/agents`, { key })).body));
    const sim = (name: string, path: string): Target => ({ name, url: server!.url + path, headers, serverPid: server!.child.pid });
    const ping: Target = { name: 'bare GET /ping', url: `${bare.url}/ping`, serverPid: bare.child.pid };
    const keyed = [sim('GET /v1/buyer/key', '/v1/buyer/key'), sim('GET /v1/runs/{id}', `/v1/runs/${runId}`), sim('GET /v1/public/agents', '/v1/public/agents')];
    const payload: Target = { name: `bare GET of a ${agentsBytes}-byte body`, url: `${bare.url}/payload/${agentsBytes}`, serverPid: bare.child.pid };

    log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s:`);
    const [ceiling, ...rest] = await interleaved([ping, ...keyed, payload], CONNECTIONS, SECONDS, (a, b) => a.rps > b.rps);
    const keyedResults = rest.slice(0, keyed.length);
    const payloadResult = rest[keyed.length];
    log(`1 connection, ${ROUNDS} rounds of ${SINGLE_SECONDS} s:`);
    const [ceilingSingle, single] = await interleaved([ping, keyed[0]], 1, SINGLE_SECONDS, (a, b) => a.p50 < b.p50);

    const base = { name: 'bare GET /ping', value: ceiling.rps };
    const rows: Row[] = [row({ group: GROUP, name: `bare Fastify GET /ping (ceiling), ${CONNECTIONS} conn`, value: ceiling.rps, unit: 'req/s', note: notes(ceiling) })];
    keyed.forEach((target, i) => {
      const result = keyedResults[i];
      rows.push(
        row({
          group: GROUP,
          name: `${target.name}, ${CONNECTIONS} conn`,
          value: result.rps,
          unit: 'req/s',
          baseline: base,
                    note: notes(result, ceiling),
        }),
      );
    });
    rows.push(
      row({
        group: GROUP,
        name: `bare Fastify, ${agentsBytes}-byte body (agents page size), ${CONNECTIONS} conn`,
        value: payloadResult.rps,
        unit: 'req/s',
        baseline: base,
        note: `for information: the payload's own cost; agents reach ${(keyedResults[2].rps / payloadResult.rps).toFixed(2)}× of it. ${notes(payloadResult, ceiling)}`,
      }),
    );
    rows.push(row({ group: GROUP, name: 'bare Fastify GET /ping p50, 1 conn', value: ceilingSingle.p50, unit: 'ms', note: `${Math.round(ceilingSingle.rps)} req/s, p99 ${ceilingSingle.p99.toFixed(3)} ms; server CPU ${cpu(ceilingSingle)}` }));
    rows.push(
      row({
        group: GROUP,
        name: 'GET /v1/buyer/key p50, 1 conn',
        value: single.p50,
        unit: 'ms',
        baseline: { name: 'bare p50, 1 conn', value: ceilingSingle.p50 },
        note: `${Math.round(single.rps)} req/s, p99 ${single.p99.toFixed(3)} ms; server CPU ${cpu(single)}`,
      }),
    );
    return rows;
  } finally {
    await bare.stop();
    await server?.stop('SIGKILL');
    await removeDir(dir);
  }
}
