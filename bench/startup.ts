/**
 * Start to ready: wall time from spawning the process to its first stdout line.
 *   understudy: node bin/understudy.js serve --port 0 --clock frozen --store <new tmp store>
 *               (the built CLI, as `npm run serve` starts it; the check that the build is current included)
 *   baseline:   node dist/bench/bare-server.js (bare Fastify, one route, built the same way)
 * For information, both again from their TypeScript sources through tsx's loader.
 * Median of RUNS starts each, alternating, each process stopped before the next.
 * understudy's figure includes creating the store and seeding the demo data, as
 * a first `npm run serve` does.
 */
import { join } from 'node:path';
import { BARE_SERVER, BARE_SERVER_SOURCE, CLI, CLI_SOURCE, log, median, removeDir, row, serveBare, spawnNode, tempDir, type Row } from './helpers.ts';

export const RUNS = 3;
const GROUP = 'start to ready';

interface Pair {
  bare: number[];
  understudy: number[];
}

export interface Startup {
  built: Pair;
  source: Pair;
}

async function measurePair(bareScript: string, cli: string): Promise<Pair> {
  const result: Pair = { bare: [], understudy: [] };
  // One unmeasured start of each first: the file system cache (and tsx's transform cache) are warm for every measured start.
  for (let i = -1; i < RUNS; i += 1) {
    const bare = await serveBare(bareScript);
    await bare.stop();
    const dir = await tempDir('startup');
    const server = await spawnNode(cli, ['serve', '--port', '0', '--clock', 'frozen', '--store', join(dir, 'store.json')]);
    await server.stop();
    await removeDir(dir);
    if (!server.line.startsWith('understudy listening on http://')) throw new Error(`unexpected ready line: ${server.line}`);
    if (i >= 0) {
      result.bare.push(bare.readyMs);
      result.understudy.push(server.readyMs);
    }
  }
  return result;
}

export async function measureStartup(): Promise<Startup> {
  const built = await measurePair(BARE_SERVER, CLI);
  log(`start to ready (built): bare ${built.bare.map(Math.round).join(', ')} ms; understudy ${built.understudy.map(Math.round).join(', ')} ms`);
  const source = await measurePair(BARE_SERVER_SOURCE, CLI_SOURCE);
  log(`start to ready (tsx): bare ${source.bare.map(Math.round).join(', ')} ms; understudy ${source.understudy.map(Math.round).join(', ')} ms`);
  return { built, source };
}

const spread = (values: number[]) => `min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))}`;

export function startupRows(r: Startup): Row[] {
  const bare = median(r.built.bare);
  const understudy = median(r.built.understudy);
  const bareSource = median(r.source.bare);
  const understudySource = median(r.source.understudy);
  return [
    row({ group: GROUP, name: `bare Fastify, built (node dist/bench/bare-server.js), median of ${RUNS}`, value: bare, unit: 'ms', note: spread(r.built.bare) }),
    row({
      group: GROUP,
      name: `understudy serve, new store (node bin/understudy.js), median of ${RUNS}`,
      value: understudy,
      unit: 'ms',
      baseline: { name: 'bare Fastify, built', value: bare },
      target: { text: '≤ 1.5× bare Fastify', pass: understudy <= 1.5 * bare },
      note: spread(r.built.understudy),
    }),
    row({ group: GROUP, name: `bare Fastify through tsx, median of ${RUNS} (information)`, value: bareSource, unit: 'ms', note: spread(r.source.bare) }),
    row({
      group: GROUP,
      name: `understudy serve through tsx (node --import tsx src/cli/main.ts), median of ${RUNS} (information)`,
      value: understudySource,
      unit: 'ms',
      baseline: { name: 'bare Fastify through tsx', value: bareSource },
      note: spread(r.source.understudy),
    }),
  ];
}
