/**
 * A user's test suite (bench/user-suite/purchases.test.ts): one vitest file of
 * SUITE_TESTS purchases on the library, run by vitest in the project where the packed
 * tarball is installed (bench/packed.ts), against understudy and against a stateless
 * stub (bare Fastify answering the same routes with bodies heard from understudy).
 * Runs alternate (understudy, stub, stub, understudy); each kind's best run counts.
 * The figure is milliseconds per test, from the first test's reset() to the last
 * test's end (the simulator's start is the library row's); the whole vitest run's
 * wall time is noted.
 */
import { spawn } from 'node:child_process';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_DIR, log, row, serveSimulator, removeDir, tempDir, type Row } from './helpers.ts';
import type { Packed } from './packed.ts';
import { makeBuyer, purchase } from './purchase.ts';
import { LISTING_ID } from './populate.ts';
import type { HeardAnswer } from './replay-app.ts';

export const SUITE_TESTS = 200;
const TARGET = 2;

interface FileRun {
  perTestMs: number;
  /** The whole vitest run, from spawn to exit. */
  fileMs: number;
}

export interface UserSuite {
  tests: number;
  understudy: FileRun;
  stub: FileRun;
}

/** The bodies the stub answers with: one purchase's, heard from a simulator. */
async function hearAnswers(dir: string): Promise<string> {
  const server = await serveSimulator(join(dir, 'store.json'));
  try {
    const heard: HeardAnswer[] = [];
    await purchase(await makeBuyer(server.url, 1), { heard: (method, route, status, body) => heard.push({ method, route, status, body }) });
    const path = join(dir, 'answers.json');
    await writeFile(path, JSON.stringify(heard));
    return path;
  } finally {
    await server.stop('SIGKILL');
  }
}

function runFile(project: string, env: Record<string, string>): Promise<FileRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=dot', 'purchases.test.ts'], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', async (code) => {
      const fileMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`the user's suite (${env.SUITE_TARGET}) failed: ${out.slice(-3000)}`));
      try {
        const result = JSON.parse(await readFile(env.SUITE_RESULT, 'utf8')) as { perTestMs: number };
        resolve({ perTestMs: result.perTestMs, fileMs });
      } catch (error) {
        reject(error);
      }
    });
  });
}

export async function measureUserSuite(packed: Packed, tests: number, rounds = 2): Promise<UserSuite> {
  const dir = await tempDir('user-suite');
  try {
    await copyFile(join(BENCH_DIR, 'user-suite', 'purchases.test.ts'), join(packed.project, 'purchases.test.ts'));
    const env = {
      SUITE_TESTS: String(tests),
      SUITE_LISTING_ID: LISTING_ID,
      SUITE_ANSWERS: await hearAnswers(dir),
      SUITE_REPLAY_APP: join(BENCH_DIR, 'replay-app.ts'),
      SUITE_RESULT: join(dir, 'result.json'),
    };
    const runs: Record<'understudy' | 'stub', FileRun[]> = { understudy: [], stub: [] };
    for (let i = 0; i < 2 * rounds; i += 1) {
      const kind = i % 4 === 0 || i % 4 === 3 ? 'understudy' : 'stub';
      const r = await runFile(packed.project, { ...env, SUITE_TARGET: kind });
      log(`  user's suite, ${tests} tests, ${kind}: ${r.perTestMs.toFixed(2)} ms per test; vitest ran ${Math.round(r.fileMs)} ms`);
      runs[kind].push(r);
    }
    const best = (rs: FileRun[]) => rs.reduce((a, b) => (b.perTestMs < a.perTestMs ? b : a));
    return { tests, understudy: best(runs.understudy), stub: best(runs.stub) };
  } finally {
    await removeDir(dir);
  }
}

export function userSuiteRows(s: UserSuite): Row[] {
  return [
    row({
      group: 'headline',
      name: `user's test suite: ${s.tests} purchases in one vitest file, per test`,
      value: s.understudy.perTestMs,
      unit: 'ms',
      baseline: { name: 'the same file against a bare Fastify stub', value: s.stub.perTestMs },
      target: { text: `≤ ${TARGET}× the stub`, pass: s.understudy.perTestMs <= TARGET * s.stub.perTestMs },
      note: `reset() before each test included; whole vitest run ${Math.round(s.understudy.fileMs)} ms (stub ${Math.round(s.stub.fileMs)} ms)`,
    }),
  ];
}
