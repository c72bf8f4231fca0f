/**
 * Start to ready: wall time from spawning the process to its first stdout line.
 *   understudy: node --import tsx src/cli/main.ts serve --port 0 --clock frozen --store <new tmp store>
 *   baseline:   node --import tsx bench/bare-server.ts (bare Fastify, one route)
 * Median of RUNS starts each, alternating, each process stopped before the next.
 * understudy's figure includes creating the store and seeding the demo data, as
 * a first `npm run serve` does.
 */
import { join } from 'node:path';
import { CLI, log, median, removeDir, row, serveBare, spawnNode, tempDir, type Row } from './helpers.ts';

export const RUNS = 5;
const GROUP = 'start to ready';

export interface Startup {
  bare: number[];
  understudy: number[];
}

export async function measureStartup(): Promise<Startup> {
  const result: Startup = { bare: [], understudy: [] };
  // One unmeasured start of each first: the file system cache and tsx's transform cache are warm for every measured start.
  for (let i = -1; i < RUNS; i += 1) {
    const bare = await serveBare();
    await bare.stop();
    const dir = await tempDir('startup');
    const server = await spawnNode(CLI, ['serve', '--port', '0', '--clock', 'frozen', '--store', join(dir, 'store.json')]);
    await server.stop();
    await removeDir(dir);
    if (!server.line.startsWith('understudy listening on http://')) throw new Error(`unexpected ready line: ${server.line}`);
    if (i >= 0) {
      result.bare.push(bare.readyMs);
      result.understudy.push(server.readyMs);
    }
  }
  log(`start to ready: bare ${result.bare.map(Math.round).join(', ')} ms; understudy ${result.understudy.map(Math.round).join(', ')} ms`);
  return result;
}

export function startupRows(r: Startup): Row[] {
  const bare = median(r.bare);
  const understudy = median(r.understudy);
  return [
    row({ group: GROUP, name: `bare Fastify (node --import tsx), median of ${RUNS}`, value: bare, unit: 'ms', note: `min ${Math.round(Math.min(...r.bare))}, max ${Math.round(Math.max(...r.bare))}` }),
    row({
      group: GROUP,
      name: `understudy serve, new store, median of ${RUNS}`,
      value: understudy,
      unit: 'ms',
      baseline: { name: 'bare Fastify', value: bare },
      target: { text: '≤ 1.5× bare Fastify', pass: understudy <= 1.5 * bare },
      note: `min ${Math.round(Math.min(...r.understudy))}, max ${Math.round(Math.max(...r.understudy))}`,
    }),
  ];
}
