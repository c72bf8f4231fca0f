/**
 * The library entry (docs/testing.md): the first start in a process, a later
 * start in the same process, and reset(), as medians, each with its ratio to
 * a bare Fastify start in the same process and run (bench/library-child.ts).
 * Goals (issue 19): a later start <= 50 ms, reset() <= 10 ms.
 */
import { ensurePackageBuilt } from '../bin/package.js';
import { builtProgram, log, median, row, runNode, type Row } from './helpers.ts';

const GROUP = 'library';
const RUNS = 30;

export interface LibraryFigures {
  importMs: number;
  firstMs: number;
  bareFirst: number;
  bare: number[];
  later: number[];
  reset: number[];
}

export async function measureLibrary(): Promise<LibraryFigures> {
  // The child imports the package build, as a user's test suite would.
  await ensurePackageBuilt();
  const figures = await runNode<LibraryFigures>(builtProgram('library-child'), [String(RUNS)]);
  log(`library: import ${Math.round(figures.importMs)} ms, first start ${Math.round(figures.firstMs)} ms (bare ${figures.bareFirst.toFixed(1)} ms); later starts ${figures.later.map(Math.round).join(', ')} ms; resets ${figures.reset.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  return figures;
}

const spread = (values: number[]) => `${values.length} runs, min ${Math.min(...values).toFixed(1)}, max ${Math.max(...values).toFixed(1)}`;

export function libraryRows(f: LibraryFigures): Row[] {
  const bare = { name: 'bare Fastify start, same process', value: median(f.bare) };
  const later = median(f.later);
  const reset = median(f.reset);
  return [
    row({ group: GROUP, name: 'import understudy', value: f.importMs, unit: 'ms', note: 'for information: loading the package build' }),
    row({ group: GROUP, name: 'first start in a process', value: f.firstMs, unit: 'ms', baseline: { name: 'bare Fastify, first in its process', value: f.bareFirst }, note: 'store created, demo data seeded, listening' }),
    row({ group: GROUP, name: 'later start (median)', value: later, unit: 'ms', baseline: bare, target: { text: '<= 50 ms', pass: later <= 50 }, note: spread(f.later) }),
    row({ group: GROUP, name: 'reset() (median)', value: reset, unit: 'ms', baseline: bare, target: { text: '<= 10 ms', pass: reset <= 10 }, note: `after one deposit each; ${spread(f.reset)}` }),
  ];
}
