/**
 * The shipped scenarios: every fixtures/scenarios/*.json in one
 * `node bin/understudy.js scenario FILE...` (what `npm run scenario` runs, minus npm),
 * wall time from spawn to exit and the process's CPU time. Baseline, for scale: the
 * same CLI started to print its help. Goal: ≤ 2 s for all of them.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, log, ROOT, row, type Row } from './helpers.ts';

const TARGET_MS = 2_000;

/** The CLI run to its end under sh, whose `times` then prints the CPU its child used (on a shared machine, wall time is not all ours). */
function timed(args: string[]): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now();
  const script = '"$0" "$@" >/dev/null; code=$?; times; exit $code';
  const child = spawn('sh', ['-c', script, process.execPath, CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`understudy ${args.slice(0, 2).join(' ')}… exited ${code}: ${err.slice(-3000)}`));
      // `times`' second line: the children's user and system time, as 0m6.813s 0m0.544s.
      const seconds = [...(out.trim().split('\n').pop() ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      resolve({ wallMs, cpuMs: seconds.length === 2 ? (seconds[0] + seconds[1]) * 1000 : Number.NaN });
    });
  });
}

export async function measureScenarios(): Promise<Row[]> {
  const dir = join(ROOT, 'fixtures', 'scenarios');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  const help = await timed(['--help']);
  const all = await timed(['scenario', ...files]);
  log(`  ${files.length} scenarios: ${Math.round(all.wallMs)} ms, CPU ${Math.round(all.cpuMs)} ms (the CLI's --help: ${Math.round(help.wallMs)} ms)`);
  return [
    row({
      group: 'headline',
      name: `shipped scenarios: all ${files.length} through \`understudy scenario\``,
      value: all.wallMs,
      unit: 'ms',
      baseline: { name: 'the same CLI printing --help', value: help.wallMs },
      target: { text: `≤ ${TARGET_MS} ms`, pass: all.wallMs <= TARGET_MS },
      note: `one process, wall time from spawn to exit; its CPU time ${Math.round(all.cpuMs)} ms (--help: ${Math.round(help.cpuMs)} ms)`,
    }),
  ];
}
