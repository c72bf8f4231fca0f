/**
 * Shared pieces of the benchmarks: temporary directories, child servers and
 * their ready lines, autocannon runs with exact latency percentiles, and the
 * result rows run.ts prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DIR = join(ROOT, 'bench');
/** How the simulator's own CLI is started: as `npm run serve` runs it, minus npm (the built CLI, bin/build.js). */
export const CLI = join(ROOT, 'bin/understudy.js');
/** The same CLI from its sources through tsx's loader (for information: how it started before the build). */
export const CLI_SOURCE = join(ROOT, 'src/cli/main.ts');
export const BARE_SERVER_SOURCE = join(BENCH_DIR, 'bare-server.ts');
/** The benchmark's own child programs, built the way the CLI is (bin/build.js `bundle`), so that all start the same way. */
const BENCH_BUILD_DIR = join(ROOT, 'dist', 'bench');
const BUILT_PROGRAMS = ['bare-server', 'fast-forward', 'soak', 'drill-server'] as const;
export const builtProgram = (name: (typeof BUILT_PROGRAMS)[number]) => join(BENCH_BUILD_DIR, `${name}.js`);
export const BARE_SERVER = builtProgram('bare-server');

/** Builds the CLI (if its sources changed) and the benchmark's child programs before anything is timed. */
export async function buildServers(): Promise<void> {
  const { bundle, ensureBuilt } = await import('../bin/build.js');
  await ensureBuilt();
  await bundle(BUILT_PROGRAMS.map((name) => join(BENCH_DIR, `${name}.ts`)), BENCH_BUILD_DIR);
}

/** One figure of the final table. */
export interface Row {
  /** Which measurement this row belongs to (one per bench file). */
  group: string;
  name: string;
  value: number;
  unit: string;
  /** The figure it is compared with, when there is one. */
  baseline?: { name: string; value: number };
  /** value / baseline.value. */
  ratio?: number;
  target?: { text: string; pass: boolean };
  note?: string;
}

export function row(r: Omit<Row, 'ratio'>): Row {
  return r.baseline ? { ...r, ratio: r.value / r.baseline.value } : r;
}

export async function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `understudy-bench-${label}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const median = (values: number[]) => percentile(values, 50);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------

/**
 * Node's arguments for SCRIPT: TypeScript through tsx's loader, built JavaScript as it is.
 * BENCH_CPU_PROF=DIR: every child process writes a V8 CPU profile into DIR (open it in Chrome DevTools).
 */
function nodeArgs(script: string): string[] {
  const profileDir = process.env.BENCH_CPU_PROF;
  return [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script];
}

export interface ReadyChild {
  child: ChildProcess;
  /** The first stdout line. */
  line: string;
  /** Milliseconds from spawn() to the first stdout line. */
  readyMs: number;
  /** http://host:port parsed from the ready line. */
  url: string;
  /** Everything written to stdout so far (later lines keep arriving). */
  stdout(): string;
  /** Ends the child (SIGTERM: a clean shutdown; SIGKILL: when the store is thrown away anyway). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Spawns `node [--import tsx] SCRIPT ARGS` and resolves at its first stdout line
 * (the ready line: `... listening on http://HOST:PORT`).
 */
export function spawnNode(script: string, args: string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<ReadyChild> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs(script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise<ReadyChild>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${script} printed no ready line within ${options.timeoutMs ?? 60_000} ms; stderr: ${err.slice(-2000)}`));
    }, options.timeoutMs ?? 60_000);
    let resolved = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (resolved || newline === -1) return;
      resolved = true;
      clearTimeout(timer);
      const readyMs = performance.now() - started;
      const line = out.slice(0, newline);
      const url = /http:\/\/[^\s]+/.exec(line)?.[0] ?? '';
      resolve({ child, line, readyMs, url, stdout: () => out, stop });
    });
    child.once('exit', (code, signal) => {
      if (resolved) return;
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code ?? signal}) before its ready line; stderr: ${err.slice(-2000)}`));
    });
  });
}

/** Runs `node [--import tsx] SCRIPT ARGS` to its end; the last stdout line is its JSON result. */
export function runNode<T>(script: string, args: string[], options: { timeoutMs?: number } = {}): Promise<T> {
  const child = spawn(process.execPath, [...nodeArgs(script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited (${code ?? signal}); stderr: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} printed no JSON result: ${out.slice(-1000)} ${err.slice(-1000)}`));
      }
    });
  });
}

/** The simulator as `understudy serve` runs it, on a free port, with request limits off and a frozen clock. */
export function serveSimulator(storePath: string, extra: string[] = []): Promise<ReadyChild> {
  return spawnNode(CLI, ['serve', '--port', '0', '--clock', 'frozen', '--limits', 'off', '--store', storePath, ...extra]);
}

export function serveBare(script = BARE_SERVER): Promise<ReadyChild> {
  return spawnNode(script, []);
}

// ---------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------

export interface LoadResult {
  /** Completed requests per second over the measured period. */
  rps: number;
  /** Exact latency percentiles (ms) from every response's own timing. */
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time the server process spent per answered request (µs), when its pid was given (Linux /proc). */
  serverCpuUs: number | null;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Measured seconds. */
  seconds: number;
  /** Unmeasured seconds first (JIT, caches, connection set-up). */
  warmupSeconds: number;
  /** The server's process id, to measure its CPU time per request. */
  serverPid?: number;
}

/** User + system CPU time of a process in ms, from /proc (null elsewhere). */
export async function processCpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) in clock ticks, 100 per second on Linux.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

function cannon(options: LoadOptions, seconds: number, times: number[] | null) {
  const instance = autocannon({ url: options.url, headers: options.headers, connections: options.connections, duration: seconds, timeout: 10 });
  if (times) {
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode < 300) times.push(responseTime);
    });
  }
  return instance;
}

/**
 * Closed-loop load with autocannon: `connections` keep one request in flight
 * each. Throughput is autocannon's count; the percentiles are computed here from
 * every response's time (autocannon's own histogram rounds to whole ms).
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await cannon(options, options.warmupSeconds, null);
  const times: number[] = [];
  const cpuBefore = await processCpuMs(options.serverPid);
  const result = await cannon(options, options.seconds, times);
  const cpuAfter = await processCpuMs(options.serverPid);
  return {
    rps: result.requests.total / options.seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    serverCpuUs: cpuBefore !== null && cpuAfter !== null && result.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total : null,
  };
}

/** One JSON request over a real socket (fetch keeps the connection alive). */
export async function request(url: string, options: { method?: string; key?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export function expectStatus(r: { status: number; body: unknown }, status: number, what: string): void {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${JSON.stringify(r.body).slice(0, 500)}`);
}
