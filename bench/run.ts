/**
 * `npm run bench`: the headline figures (what users wait on), each side by side
 * with its baseline in the same run, then figures kept for information; a table
 * (stdout) and bench/results.json. Progress goes to stderr. docs/benchmarks.md
 * describes each figure. `npm run bench -- soak memory` runs only the named
 * measurements (after the build): see SELECTABLE; the names in EXTRA (growth among
 * them) run only when named.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { acceptRows, BUYERS, measureAccept } from './accept.ts';
import { DEADLINE_MS, fastForwardRows, LOGS, measureFastForward } from './fast-forward.ts';
import { BENCH_DIR, buildServers, log, removeDir, row, tempDir, type Row } from './helpers.ts';
import { measureMemory, memoryRows } from './memory.ts';
import { populateStore, type PopulatedStore } from './populate.ts';
import { libraryRows, measureLibrary } from './library.ts';
import { measureStartup, startupRows } from './startup.ts';
import { measureSoak, soakRows } from './soak.ts';
import { measureThroughput } from './throughput.ts';
import { measureDrillCost } from './drill-cost.ts';
import { measureImport, measureStop } from './import-stop.ts';
import { measurePurchaseMix } from './purchase-mix.ts';
import { measureScenarios } from './scenarios.ts';
import { measureUserSuite, SUITE_TESTS, userSuiteRows } from './user-suite.ts';
import { installPacked, type Packed } from './packed.ts';

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
const SELECTABLE = ['suite', 'mix', 'fast-forward', 'scenarios', 'library', 'throughput', 'startup', 'drill', 'memory', 'accept', 'soak', 'import', 'stop', 'growth'] as const;
type Name = (typeof SELECTABLE)[number];
/** Not in the default run (under 6 minutes on 2 cores): each only when named. */
const EXTRA: Name[] = ['drill', 'memory', 'accept', 'soak', 'import', 'stop', 'growth'];
const selected = process.argv.slice(2);
for (const name of selected) {
  if (!(SELECTABLE as readonly string[]).includes(name)) throw new Error(`bench: no measurement is named '${name}' (${SELECTABLE.join(', ')})`);
}
const wanted = (name: Name) => (selected.length === 0 ? !EXTRA.includes(name) : selected.includes(name));

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

/** The month of monitors with ten times the logs and the user's suite with ten times the tests, beside the default sizes. */
async function growthRows(fromPackage: Packed): Promise<Row[]> {
  const month = [await measureFastForward(LOGS), await measureFastForward(10 * LOGS, 600_000)];
  const suites = [await measureUserSuite(fromPackage, SUITE_TESTS, 1), await measureUserSuite(fromPackage, 10 * SUITE_TESTS, 1)];
  const grows = (a: number, b: number) => `${(b / a).toFixed(1)}× the cost for 10× the size (linear: 10×)`;
  return [
    row({ group: 'growth', name: `month of monitors, ${month[1].logs} logs and deliveries`, value: month[1].wallMs, unit: 'ms', baseline: { name: `${month[0].logs} logs`, value: month[0].wallMs }, note: grows(month[0].wallMs, month[1].wallMs) }),
    row({ group: 'growth', name: `user's suite, ${suites[1].tests} tests, whole file`, value: suites[1].understudy.fileMs, unit: 'ms', baseline: { name: `${suites[0].tests} tests`, value: suites[0].understudy.fileMs }, note: `${grows(suites[0].understudy.fileMs, suites[1].understudy.fileMs)}; per test ${suites[0].understudy.perTestMs.toFixed(2)} → ${suites[1].understudy.perTestMs.toFixed(2)} ms` }),
  ];
}

async function main(): Promise<number> {
  const started = performance.now();
  log(`machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGB} GB, ${machine.os}, node ${machine.node}`);

  // Built before anything is timed: every server below starts from its build, as `npm run serve` does.
  await phase('build', async () => (await buildServers(), []));
  // The packed tarball installed in a temporary project: what the library rows and the user's suite run.
  let packed: Packed | null = null;
  if (wanted('suite') || wanted('library') || wanted('growth')) await phase('npm pack and install', async () => ((packed = await installPacked()), []));
  const fromPackage = packed as Packed | null;
  if (fromPackage && wanted('suite')) await phase('user test suite', async () => userSuiteRows(await measureUserSuite(fromPackage, SUITE_TESTS)));
  if (wanted('mix')) await phase('purchase mix', measurePurchaseMix);
  if (wanted('fast-forward')) await phase('month of monitors', async () => fastForwardRows(await measureFastForward(LOGS), await measureFastForward(LOGS, DEADLINE_MS, false)));
  if (wanted('scenarios')) await phase('shipped scenarios', measureScenarios);
  if (fromPackage && wanted('library')) await phase('library', async () => libraryRows(await measureLibrary(fromPackage)));
  if (fromPackage && wanted('growth')) await phase('growth', async () => growthRows(fromPackage));
  if (wanted('throughput')) await phase('keyed GETs', measureThroughput);
  if (wanted('startup')) await phase('start to ready', async () => startupRows(await measureStartup()));
  if (wanted('drill')) await phase('drill', measureDrillCost);
  if (wanted('soak')) await phase('soak', async () => soakRows(await measureSoak()));
  if (wanted('stop')) await phase('stop under load', measureStop);

  // The populated stores are built once and used by the memory and accept measurements.
  const dirs: string[] = [];
  let small: PopulatedStore | null = null;
  let large: PopulatedStore | null = null;
  if (wanted('memory') || wanted('accept') || wanted('import')) await phase('populate stores', async () => {
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
    if (wanted('import')) await phase('snapshot import', () => measureImport(l));
  }
  for (const dir of dirs) await removeDir(dir);
  if (fromPackage) await removeDir(fromPackage.dir);

  const totalSeconds = (performance.now() - started) / 1000;
  // Headline rows first, then the rest for information.
  const output = table([...rows.filter((r) => r.group === 'headline'), ...rows.filter((r) => r.group !== 'headline')]);
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
