/**
 * Peak memory: a child process (bench/memory-child.ts) opens a populated store
 * through buildSimulator, serves a few requests, and reports
 * process.resourceUsage().maxRSS (cross-checked with /proc VmHWM); measured with
 * 20,000 runs, and with 100 runs as the baseline. The child is started through a
 * shell so that its maxRSS is its own (see runNode). The peak after the shutdown
 * compaction is shown beside it.
 */
import { join } from 'node:path';
import { BENCH_DIR, log, row, runNode, type Row } from './helpers.ts';
import type { PopulatedStore } from './populate.ts';

const GROUP = 'memory';
const MB = 1024 * 1024;
export const MEMORY_LIMIT_MB = 200;

export interface MemoryUse {
  runs: number;
  snapshotBytes: number;
  loadMs: number;
  servingMaxRssBytes: number;
  servingHwmBytes: number;
  closeMaxRssBytes: number;
  heapUsedBytes: number;
}

export async function measureMemory(store: PopulatedStore): Promise<MemoryUse> {
  const buyer = store.buyers[store.buyers.length - 1];
  const result = await runNode<Omit<MemoryUse, 'runs' | 'snapshotBytes'>>(join(BENCH_DIR, 'memory-child.ts'), [store.storePath, store.reader.secret, store.reader.runId, buyer.secret], { viaShell: true });
  log(`memory with ${store.runs} runs: max RSS ${(result.servingMaxRssBytes / MB).toFixed(0)} MB serving (VmHWM ${(result.servingHwmBytes / MB).toFixed(0)} MB), ${(result.closeMaxRssBytes / MB).toFixed(0)} MB after close; loaded in ${Math.round(result.loadMs)} ms`);
  return { runs: store.runs, snapshotBytes: store.snapshotBytes, ...result };
}

export function memoryRows(small: MemoryUse, large: MemoryUse): Row[] {
  const mb = (bytes: number) => bytes / MB;
  return [
    row({ group: GROUP, name: `peak RSS serving, ${small.runs} runs`, value: mb(small.servingMaxRssBytes), unit: 'MB', note: `VmHWM ${mb(small.servingHwmBytes).toFixed(0)} MB; snapshot ${mb(small.snapshotBytes).toFixed(1)} MB` }),
    row({
      group: GROUP,
      name: `peak RSS serving, ${large.runs} runs`,
      value: mb(large.servingMaxRssBytes),
      unit: 'MB',
      baseline: { name: `${small.runs} runs`, value: mb(small.servingMaxRssBytes) },
      target: { text: `≤ ${MEMORY_LIMIT_MB} MB`, pass: mb(large.servingMaxRssBytes) <= MEMORY_LIMIT_MB },
      note: `VmHWM ${mb(large.servingHwmBytes).toFixed(0)} MB; snapshot ${mb(large.snapshotBytes).toFixed(0)} MB; heap used ${mb(large.heapUsedBytes).toFixed(0)} MB; opened in ${Math.round(large.loadMs)} ms`,
    }),
    row({
      group: GROUP,
      name: `peak RSS incl. shutdown compaction, ${large.runs} runs`,
      value: mb(large.closeMaxRssBytes),
      unit: 'MB',
      baseline: { name: `${small.runs} runs`, value: mb(small.closeMaxRssBytes) },
      note: 'for information',
    }),
  ];
}
