/**
 * What the drill (chaos and the conduct report, docs/drill.md) costs a purchase when
 * no fault is injected: a simulator with `--chaos calm` (every /v1 request recorded)
 * against the same build without the drill, as a ratio of server CPU per purchase
 * (bench/purchase.ts: catalog, quote, accept, poll, billing, receipt, export).
 *
 * One process of a build can run 10 to 30 % dearer than another for its whole life,
 * so each process holds both kinds (bench/drill-server.ts) and a process's figure is
 * the median of its calm rounds over the median of its other rounds, the two kinds
 * alternating round by round (calm, without, without, calm, …: a drift over the
 * session weighs on both alike). The row is the median over the processes.
 */
import { join } from 'node:path';
import { builtProgram, log, median, processCpuMs, removeDir, row, spawnNode, tempDir, type ReadyChild, type Row } from './helpers.ts';
import { makeBuyer, purchase, type Buyer } from './purchase.ts';

const PROCESSES = 3;
/** Measured rounds of each kind per process. */
const ROUNDS = 5;
const PURCHASES_PER_ROUND = 80;
const WARMUP_PURCHASES = 50;
const TARGET = 1.1;

interface Paired {
  child: ReadyChild;
  calm: Buyer;
  without: Buyer;
}

async function start(dir: string, index: number): Promise<Paired> {
  const child = await spawnNode(builtProgram('drill-server'), ['--store', join(dir, `${index}.json`), '--first', index % 2 === 0 ? 'calm' : 'without']);
  const urlOf = (kind: 'calm' | 'without') => {
    const line = new RegExp(`^${kind} (\\S+) (\\S+)$`, 'm').exec(child.stdout());
    if (!line) throw new Error(`the paired server printed no ${kind} line: ${child.stdout()}`);
    return line[1];
  };
  return { child, calm: await makeBuyer(urlOf('calm')), without: await makeBuyer(urlOf('without')) };
}

/** Server CPU per purchase of `count` purchases, in µs. */
async function cpuPerPurchase(pid: number, buyer: Buyer, count: number): Promise<number> {
  const before = await processCpuMs(pid);
  for (let i = 0; i < count; i += 1) await purchase(buyer);
  const after = await processCpuMs(pid);
  if (before === null || after === null) throw new Error('no /proc: the server CPU cannot be read here');
  return ((after - before) * 1000) / count;
}

/** One process, driven on its own: warm-up, then rounds alternating the kinds; its calm ÷ without. */
async function measureProcess(p: Paired, index: number): Promise<{ ratio: number; calm: number; without: number }> {
  const pid = p.child.child.pid!;
  for (const buyer of [p.calm, p.without]) for (let i = 0; i < WARMUP_PURCHASES; i += 1) await purchase(buyer);
  const calm: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < 2 * ROUNDS; round += 1) {
    const isCalm = (index + round + Math.floor(round / 2)) % 2 === 0;
    (isCalm ? calm : without).push(await cpuPerPurchase(pid, isCalm ? p.calm : p.without, PURCHASES_PER_ROUND));
  }
  return { ratio: median(calm) / median(without), calm: median(calm), without: median(without) };
}

export async function measureDrillCost(): Promise<Row[]> {
  const dir = await tempDir('drill-cost');
  const pairs: Paired[] = [];
  try {
    const started = await Promise.allSettled(Array.from({ length: PROCESSES }, (_, index) => start(dir, index)));
    for (const s of started) if (s.status === 'fulfilled') pairs.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const results = await Promise.all(pairs.map((p, index) => measureProcess(p, index)));
    log(`  drill: µs per purchase per process, calm ${results.map((r) => r.calm.toFixed(0)).join(' ')}; without ${results.map((r) => r.without.toFixed(0)).join(' ')}`);
    const ratios = results.map((r) => r.ratio);
    const ratio = median(ratios);
    return [
      row({
        group: 'drill',
        name: 'server CPU per purchase, --chaos calm ÷ without the drill',
        value: Number(ratio.toFixed(3)),
        unit: '×',
        target: { text: `≤ ${TARGET}×`, pass: ratio <= TARGET },
        note: `median of ${PROCESSES} processes each holding both kinds (${ROUNDS} rounds of ${PURCHASES_PER_ROUND} purchases of each); ratios ${ratios.map((r) => r.toFixed(3)).join(' ')}; calm ${median(results.map((r) => r.calm)).toFixed(0)} µs per purchase`,
      }),
    ];
  } finally {
    for (const p of pairs) await p.child.stop('SIGKILL');
    await removeDir(dir);
  }
}
