/**
 * `npm run bench`: every measurement in one run, side by side with its
 * baseline, then a table (stdout) and bench/results.json. Progress goes to
 * stderr. docs/benchmarks.md describes each figure. `npm run bench -- soak
 * memory` runs only the named measurements (after the build): see SELECTABLE.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { acceptRows, BUYERS, measureAccept } from './accept.ts';
import { fastForwardRows, LOGS, measureFastForward, SMALL_LOGS } from './fast-forward.ts';
import { BENCH_DIR, buildServers, log, removeDir, tempDir, type Row } from './helpers.ts';
import { measureMemory, memoryRows } from './memory.ts';
import { populateStore, type PopulatedStore } from './populate.ts';
import { libraryRows, measureLibrary } from './library.ts';
import { measureStartup, startupRows } from './startup.ts';
import { measureSoak, soakRows } from './soak.ts';
import { measureThroughput } from './throughput.ts';
import { measureDrillCost } from './drill-cost.ts';

const SMALL_RUNS = 100;
const LARGE_RUNS = 20_000;

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGB: Math.round(totalmem() / 2 ** 30),
  os: `${osType()} ${release()}`,
  node: process.version,
};

/** Names accepted on the command line, each selecting one measurement. */
const SELECTABLE = ['throughput', 'drill', 'startup', 'library', 'fast-forward', 'memory', 'accept', 'soak'] as const;
const selected = process.argv.slice(2);
for (const name of selected) {
  if (!(SELECTABLE as readonly string[]).includes(name)) throw new Error(`bench: no measurement is named '${name}' (${SELECTABLE.join(', ')})`);
}
const wanted = (name: (typeof SELECTABLE)[number]) => selected.length === 0 || selected.includes(name);

const rows: Row[] = [];
const failures: string[] = [];
const phases: Record<string, number> = {};

async function phase(name: string, fn: () => Promise<Row[]>): Promise<void> {
  log(`${name}…`);
  const started = performance.now();
  try {
    rows.push(...(await fn()));
  } catch (error) {
    failures.push(`${name}: ${(error as Error).stack ?? error}`);
    log(`${name} FAILED: ${(error as Error).message}`);
  }
  phases[name] = Math.round(performance.now() - started);
  log(`${name}: ${(phases[name] / 1000).toFixed(1)} s`);
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return `> limit ${unit}`;
  if (unit === 'req/s') return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
  if (unit === 'MB') return `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ${unit}`;
  if (unit === 'ms') return `${value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(2) : Math.round(value).toLocaleString('en-US')} ${unit}`;
  return `${value} ${unit}`;
}

function table(all: Row[]): string {
  const header = ['group', 'measurement', 'value', 'baseline', 'ratio', 'target', 'result', 'notes'];
  const lines = all.map((r) => [
    r.group,
    r.name,
    formatValue(r.value, r.unit),
    r.baseline ? `${formatValue(r.baseline.value, r.unit)} (${r.baseline.name})` : '',
    r.ratio !== undefined && Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : '',
    r.target?.text ?? '',
    r.target ? (r.target.pass ? 'PASS' : 'MISS') : '',
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ').trimEnd();
  return [render(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(render)].join('\n');
}

async function main(): Promise<number> {
  const started = performance.now();
  log(`machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGB} GB, ${machine.os}, node ${machine.node}`);

  // Built before anything is timed: every server below starts from its build, as `npm run serve` does.
  await phase('build', async () => (await buildServers(), []));
  if (wanted('throughput')) await phase('keyed GETs', measureThroughput);
  if (wanted('drill')) await phase('drill', measureDrillCost);
  if (wanted('startup')) await phase('start to ready', async () => startupRows(await measureStartup()));
  if (wanted('library')) await phase('library', async () => libraryRows(await measureLibrary()));
  if (wanted('fast-forward')) await phase('clock fast-forward', async () => fastForwardRows(await measureFastForward(SMALL_LOGS), await measureFastForward(LOGS)));
  if (wanted('soak')) await phase('soak', async () => soakRows(await measureSoak()));

  // The populated stores are built once and used by the memory and accept measurements.
  const dirs: string[] = [];
  let small: PopulatedStore | null = null;
  let large: PopulatedStore | null = null;
  if (wanted('memory') || wanted('accept')) await phase('populate stores', async () => {
    const smallDir = await tempDir('small');
    const largeDir = await tempDir('large');
    dirs.push(smallDir, largeDir);
    small = await populateStore(smallDir, { runs: SMALL_RUNS, buyers: BUYERS });
    large = await populateStore(largeDir, { runs: LARGE_RUNS, buyers: BUYERS });
    log(`stores: ${SMALL_RUNS} runs in ${Math.round(small.buildMs)} ms, ${LARGE_RUNS} runs in ${Math.round(large.buildMs)} ms (${(large.storeBytes / 2 ** 20).toFixed(0)} MB on disk)`);
    return [];
  });
  if (small && large) {
    const [s, l] = [small as PopulatedStore, large as PopulatedStore];
    if (wanted('memory')) await phase('memory', async () => memoryRows(await measureMemory(s), await measureMemory(l)));
    if (wanted('accept')) await phase('durable accept', async () => {
      const [smallAccept, largeAccept] = await measureAccept([s, l]);
      return acceptRows(smallAccept, largeAccept);
    });
  }
  for (const dir of dirs) await removeDir(dir);

  const totalSeconds = (performance.now() - started) / 1000;
  const output = table(rows);
  process.stdout.write(`\nunderstudy benchmarks — ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGB} GB, node ${machine.node}; ${totalSeconds.toFixed(0)} s\n\n${output}\n`);
  const misses = rows.filter((r) => r.target && !r.target.pass).length;
  const targets = rows.filter((r) => r.target).length;
  process.stdout.write(`\n${targets - misses} of ${targets} targets met${failures.length ? `; ${failures.length} phase(s) failed` : ''}.\n`);
  if (failures.length) process.stdout.write(`\n${failures.join('\n\n')}\n`);

  await writeFile(
    join(BENCH_DIR, 'results.json'),
    `${JSON.stringify({ at: new Date().toISOString(), machine, totalSeconds, phaseMs: phases, rows, failures }, null, 2)}\n`,
  );
  return failures.length ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 1;
  },
);
