/**
 * The library entry (docs/testing.md), from the packed tarball installed in a
 * temporary project (bench/packed.ts): the first start in a process, a later
 * start in the same process, and reset() of the temporary store, as medians,
 * each beside a bare Fastify start in the same process and run
 * (bench/library-child.mjs). Goals: a later start ≤ 50 ms, reset() ≤ 2 ms.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_DIR, log, median, row, runNode, type Row } from './helpers.ts';
import type { Packed } from './packed.ts';

const GROUP = 'headline';
const RUNS = 30;
const RESET_TARGET_MS = 2;

export interface LibraryFigures {
  importMs: number;
  firstMs: number;
  bareFirst: number;
  bare: number[];
  later: number[];
  reset: number[];
}

export async function measureLibrary(packed: Packed): Promise<LibraryFigures> {
  // The child imports 'understudy' from the project's node_modules, as a user's test suite would.
  const child = join(packed.project, 'library-child.mjs');
  await copyFile(join(BENCH_DIR, 'library-child.mjs'), child);
  const figures = await runNode<LibraryFigures>(child, [String(RUNS)]);
  log(`library: import ${Math.round(figures.importMs)} ms, first start ${Math.round(figures.firstMs)} ms (bare ${figures.bareFirst.toFixed(1)} ms); later starts ${figures.later.map(Math.round).join(', ')} ms; resets ${figures.reset.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  return figures;
}

const spread = (values: number[]) => `${values.length} runs, min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)}`;

export function libraryRows(f: LibraryFigures): Row[] {
  const bare = { name: 'bare Fastify start, same process', value: median(f.bare) };
  const later = median(f.later);
  const reset = median(f.reset);
  return [
    row({ group: 'library', name: 'import understudy', value: f.importMs, unit: 'ms', note: 'for information: loading the package' }),
    row({ group: GROUP, name: 'library: first start in a process', value: f.firstMs, unit: 'ms', baseline: { name: 'bare Fastify, first in its process', value: f.bareFirst }, note: 'store created, demo data seeded, listening' }),
    row({ group: GROUP, name: 'library: later start (median)', value: later, unit: 'ms', baseline: bare, target: { text: '≤ 50 ms', pass: later <= 50 }, note: spread(f.later) }),
    row({ group: GROUP, name: 'library: reset() (median)', value: reset, unit: 'ms', baseline: bare, target: { text: `≤ ${RESET_TARGET_MS} ms`, pass: reset <= RESET_TARGET_MS }, note: `after one deposit each; ${spread(f.reset)}` }),
  ];
}
