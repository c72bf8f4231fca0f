/**
 * Soak: a day of a simulator left running with monitors, fast-forwarded. A
 * child process (built like the CLI, a fresh heap) opens a simulator
 * (buildSimulator, limits off, frozen clock) with 5 active monitors on base
 * (an erc20-transfer rule each on the same token, so every transfer is an
 * event of all five) and one verified destination subscribed to all of them:
 * a receiver in this process, on a real loopback socket, answering 200 to
 * every delivery. Every STEP_SECONDS of simulated time a block with one
 * transfer is mined and the clock advanced (every due job run: monitor ticks,
 * signed deliveries), as the realtime ticks of `serve` would; checkpoints run
 * as the store is configured (STORE_LAYOUT, sim/store/layout.ts), never forced. At hours 1, 6 and
 * 24 the child samples its resident set, the snapshot file's size and the
 * journal's: its size then, and the largest it reached in the hour before
 * (the journal is cut at each checkpoint, so one reading falls anywhere
 * between empty and its bound; the hour's peak is the bound it kept to).
 * The resident set is read after compacting full collections, once it has
 * settled (settledMemory): a realtime `serve` is idle between jobs and V8's
 * memory reducer compacts its heap then, while a fast-forward never idles, so
 * without them the reading is V8's committed-but-unused old space (it varied
 * 131–186 MB at hour 24 across runs with the same 19 MB of live old space), not
 * what the process holds; and read at once after the collection, it still
 * counted pages the collector was giving back.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildSimulator } from '../sim/app.ts';
import { createAccount } from '../sim/domain/ledger/index.ts';
import { mineBlocks } from '../sim/domain/chains/index.ts';
import { transact } from '../sim/domain/context.ts';
import { createDestination, subscribe, verifyDestination } from '../sim/domain/deliveries/index.ts';
import { wakeMonitors } from '../sim/domain/chains/index.ts';
import { createMonitor } from '../sim/domain/chains/index.ts';
import { builtProgram, log, removeDir, row, runNode, tempDir, type Row } from './helpers.ts';
import { startReceiver } from './receiver.ts';

export const HOURS = [1, 6, 24] as const;
/** One transfer on base every this many simulated seconds: 2,880 a day, each an event of all 5 monitors. */
export const STEP_SECONDS = 30;
export const MONITORS = 5;
/** The goal: hour 24 / hour 1 ≤ this for every figure. */
export const FLAT_RATIO = 1.2;
/** The phase's bound. */
export const DEADLINE_MS = 300_000;

const GROUP = 'soak';
const MB = 2 ** 20;
const TOKEN = `0x${'a1'.repeat(20)}`;

export interface SoakSample {
  hour: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** V8's committed heap, and memory outside it (buffers, typed arrays): where the rest of the RSS is. */
  heapTotalBytes: number;
  externalBytes: number;
  snapshotBytes: number;
  journalBytes: number;
  /** The largest the journal was in the hour up to this sample. */
  journalPeakBytes: number;
  archiveBytes: number;
  residentRows: number;
  archivedRows: number;
}

export interface Soak {
  wallMs: number;
  transfers: number;
  events: number;
  deliveries: number;
  samples: SoakSample[];
  /** The snapshot the clean stop after hour 24 wrote (its checkpoint), and the journal it left. */
  stoppedSnapshotBytes: number;
  stoppedJournalBytes: number;
}

/** Runs the soak in a child process of its own against a receiver here. */
export async function measureSoak(): Promise<Soak> {
  const dir = await tempDir('soak');
  const receiver = await startReceiver();
  try {
    const result = await runNode<Soak>(builtProgram('soak'), ['--child', receiver.url, dir], { timeoutMs: DEADLINE_MS });
    return { ...result, deliveries: receiver.deliveries() };
  } finally {
    await receiver.close();
    await removeDir(dir);
  }
}

/** Readings of the resident set after a collection agree within this when nothing is left to give back. */
const SETTLED_BYTES = MB / 2;
const SETTLE_PAUSE_MS = 100;
const SETTLE_TRIES = 10;

/**
 * The process's memory once a full collection has given back what it freed: the
 * collector releases pages from background threads after gc() returns (read at
 * once, the resident set was up to 15 MB above what it settled to a moment
 * later, whichever hour), so it is read again after a pause and a further
 * collection until two readings agree. Nothing is dropped that the process
 * still holds: what it keeps stays in the reading however long it waits.
 */
async function settledMemory(gc: () => void): Promise<NodeJS.MemoryUsage> {
  gc();
  let last = process.memoryUsage();
  for (let k = 0; k < SETTLE_TRIES; k += 1) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
    gc();
    const now = process.memoryUsage();
    if (Math.abs(now.rss - last.rss) < SETTLED_BYTES) return now;
    last = now;
  }
  return last;
}

/**
 * Readings per sample, one after each of its last steps (the last two and a
 * half simulated minutes of the hour): the median is the figure. The native
 * allocator's heaps hold on to freed memory in steps of several MB that come and
 * go from one step to the next (hour 24 read 122–145 MB across runs with the same
 * JS heap, committed heap and external memory); the median of five is still a
 * reading of the resident set, never below what the process holds throughout.
 */
const MEMORY_READINGS = 5;

const medianByRss = (readings: NodeJS.MemoryUsage[]) => [...readings].sort((a, b) => a.rss - b.rss)[Math.floor(readings.length / 2)];

const sizeOf = async (path: string) => (await stat(path).catch(() => ({ size: 0 }))).size;

async function soakHere(receiverUrl: string, dir: string): Promise<Omit<Soak, 'deliveries'>> {
  setFlagsFromString('--expose-gc');
  // The samples' collections compact: what V8's memory reducer does to an idle process (see above).
  setFlagsFromString('--compact-on-every-full-gc');
  const gc = runInNewContext('gc') as () => void;
  const storePath = join(dir, 'store.json');
  const built = await buildSimulator({ storePath, clock: 'frozen', limits: false, seed: 'soak' });
  const started = performance.now();
  let closed = false;
  try {
    const { deps, send } = built.sim;
    const account = createAccount(deps, { type: 'evm', label: 'soak' });
    const { destination } = createDestination(deps, account.id, { url: receiverUrl });
    const verified = await verifyDestination(deps, send, destination.id);
    if (verified.destination.state !== 'verified') throw new Error(`the receiver was not verified: ${verified.destination.lastError}`);
    for (let k = 0; k < MONITORS; k += 1) {
      const { monitor } = createMonitor(deps, { kind: 'owner', accountId: account.id }, {
        name: `soak watcher ${k}`,
        chain: 'base',
        rules: [{ id: 'transfers', type: 'erc20-transfer', token: TOKEN }],
        durationSeconds: 2 * 86_400,
        tickBudget: 10_000,
        rpcBudget: 100_000,
        windowBlocks: 25,
        idempotencyKey: `soak-${k}`,
      });
      subscribe(deps, monitor.id, destination.id);
    }
    await deps.store.flush();
    const journalPath = deps.store.journalPath;
    const samples: SoakSample[] = [];
    let transfers = 0;
    let journalPeak = 0;
    let readings: NodeJS.MemoryUsage[] = [];
    const steps = (HOURS[HOURS.length - 1] * 3600) / STEP_SECONDS;
    for (let step = 1; step <= steps; step += 1) {
      transact(deps, (tx) => {
        const from = `0x${(step % 97).toString(16).padStart(40, '0')}`;
        mineBlocks(deps, tx, 'base', 1, [{ address: TOKEN, event: 'Transfer', args: { from, to: `0x${'d4'.repeat(20)}`, value: String(1_000 + step) } }]);
        wakeMonitors(deps, tx, 'base');
      });
      transfers += 1;
      await built.sim.advance({ seconds: STEP_SECONDS });
      await deps.store.flush();
      journalPeak = Math.max(journalPeak, await sizeOf(journalPath));
      // The memory readings of a sample: one after each of its last MEMORY_READINGS steps.
      const sampleStep = HOURS.map((h) => (h * 3600) / STEP_SECONDS).find((last) => step <= last && step > last - MEMORY_READINGS);
      if (sampleStep === undefined) continue;
      readings.push(await settledMemory(gc));
      if (step !== sampleStep) continue;
      const memory = medianByRss(readings);
      readings = [];
      const hour = (step * STEP_SECONDS) / 3600;
      const figures = deps.store.figures();
      const sample: SoakSample = {
        hour,
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        heapTotalBytes: memory.heapTotal,
        externalBytes: memory.external,
        snapshotBytes: await sizeOf(storePath),
        journalBytes: await sizeOf(journalPath),
        journalPeakBytes: journalPeak,
        archiveBytes: figures.archive?.bytes ?? 0,
        residentRows: figures.residentRows,
        archivedRows: figures.archivedRows,
      };
      samples.push(sample);
      log(`soak hour ${hour}: RSS ${(sample.rssBytes / MB).toFixed(1)} MB, snapshot ${(sample.snapshotBytes / MB).toFixed(2)} MB, journal ${(sample.journalBytes / MB).toFixed(2)} MB (peak ${(journalPeak / MB).toFixed(2)} MB), archive ${(sample.archiveBytes / MB).toFixed(1)} MB, ${sample.residentRows} resident rows, ${sample.archivedRows} archived`);
      journalPeak = 0;
    }
    const wallMs = performance.now() - started;
    const events = deps.store.count('monitorEvents');
    await built.close();
    closed = true;
    return { wallMs, transfers, events, samples, stoppedSnapshotBytes: await sizeOf(storePath), stoppedJournalBytes: await sizeOf(journalPath) };
  } finally {
    if (!closed) await built.close();
  }
}

export function soakRows(soak: Soak): Row[] {
  const [first, , last] = soak.samples;
  const figure = (name: string, unit: string, pick: (s: SoakSample) => number, scale: number, targeted: boolean, note: string): Row[] =>
    soak.samples.map((s) =>
      row({
        group: GROUP,
        name: `${name} at hour ${s.hour}`,
        value: Number((pick(s) / scale).toFixed(2)),
        unit,
        ...(s !== first ? { baseline: { name: 'hour 1', value: Number((pick(first) / scale).toFixed(2)) } } : {}),
        ...(targeted && s === last ? { target: { text: `≤ ${FLAT_RATIO}× hour 1`, pass: pick(last) <= FLAT_RATIO * pick(first) } } : {}),
        ...(s === first ? { note } : {}),
      }),
    );
  return [
    ...figure('resident memory (RSS, settled after compacting GCs)', 'MB', (s) => s.rssBytes, MB, true, `${MONITORS} monitors, 1 receiver, a transfer every ${STEP_SECONDS} s; ${soak.transfers} transfers, ${soak.events} events, ${soak.deliveries} deliveries in ${(soak.wallMs / 1000).toFixed(0)} s; JS heap used ${soak.samples.map((s) => (s.heapUsedBytes / MB).toFixed(0)).join(' / ')} MB of ${soak.samples.map((s) => (s.heapTotalBytes / MB).toFixed(0)).join(' / ')} committed; external ${soak.samples.map((s) => (s.externalBytes / MB).toFixed(0)).join(' / ')} MB`),
    ...figure('snapshot file', 'MB', (s) => s.snapshotBytes, MB, true, `resident rows ${soak.samples.map((s) => s.residentRows).join(' / ')}`),
    ...figure("journal's peak in the hour", 'MB', (s) => s.journalPeakBytes, MB, true, `at the sample: ${soak.samples.map((s) => (s.journalBytes / MB).toFixed(2)).join(' / ')} MB`),
    row({
      group: GROUP,
      name: 'snapshot file after the stop at hour 24 (information)',
      value: Number((soak.stoppedSnapshotBytes / MB).toFixed(2)),
      unit: 'MB',
      baseline: { name: 'hour 1', value: Number((first.snapshotBytes / MB).toFixed(2)) },
      note: `written by the shutdown checkpoint: what the state outside the archive has grown to; journal left ${(soak.stoppedJournalBytes / MB).toFixed(2)} MB`,
    }),
    ...figure('archive file (information: the history)', 'MB', (s) => s.archiveBytes, MB, false, `archived rows ${soak.samples.map((s) => s.archivedRows).join(' / ')}`),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--child') {
  const result = await soakHere(process.argv[3], process.argv[4]);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
