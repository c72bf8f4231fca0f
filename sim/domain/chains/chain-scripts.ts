import type { ChainDeps } from './chain-deps.ts';
import { assertChain, mineBlocks, reorg, type LogInput } from './chains.ts';
import { transact, type StoreTx } from '../context.ts';
import { errors } from '../errors.ts';
import { reserveJobSeqs, scheduleAs } from '../jobs/index.ts';
import { retractForReorg, wakeMonitors } from './monitor-engine.ts';

/**
 * Chain scripts: logs and reorgs at given times, from fixtures/chains/NAME.json:
 *   { "description": "...", "entries": [ { "afterSeconds": 30, "chain": "base",
 *     "logs": [ { "address": "0x…", "event": "Transfer", "args": { … } } ] },
 *     { "afterSeconds": 90, "chain": "base", "reorg": { "depth": 2 } } ] }
 * Loading schedules every entry relative to the current simulated time.
 */
export interface ChainScript {
  description?: string;
  entries: Array<{ afterSeconds: number; chain: string; count?: number; logs?: LogInput[]; reorg?: { depth: number; logs?: LogInput[] } }>;
}

/**
 * Checks a script as read from fixtures/chains/NAME.json (`text`, or null when
 * there is no such file) and gives its entries.
 */
export function parseChainScript(name: string, text: string | null): ChainScript {
  if (text === null) throw errors.notFound(`No chain script named '${name}' in fixtures/chains/.`);
  let script: ChainScript;
  try {
    script = JSON.parse(text);
  } catch (error) {
    throw errors.invalidInput(`fixtures/chains/${name}.json is not valid JSON (${(error as Error).message}).`);
  }
  if (!script || !Array.isArray(script.entries)) throw errors.invalidInput(`fixtures/chains/${name}.json has no "entries" array.`);
  return script;
}

/** Mines `count` blocks (the first holding `logs`) and lets the chain's monitors look: what a script entry and POST /sim/chains/{chain}/blocks do. */
export function mineAndWake(deps: ChainDeps, tx: StoreTx, chain: string, count: number, logs: LogInput[]) {
  const mined = mineBlocks(deps, tx, chain, count, logs);
  wakeMonitors(deps, tx, chain);
  return mined;
}

/** Replaces the newest `depth` blocks and retracts what monitors reported from the removed logs. */
export function reorgAndRetract(deps: ChainDeps, tx: StoreTx, chain: string, depth: number, logs: LogInput[]) {
  const replaced = reorg(deps, tx, chain, depth, logs);
  retractForReorg(deps, tx, chain, replaced.removed, BigInt(replaced.blocks[0].number));
  return replaced;
}

export function scheduleChainScript(deps: ChainDeps, name: string, script: ChainScript): { script: string; scheduled: number } {
  script.entries.forEach((e, i) => {
    assertChain(e.chain);
    if (!Number.isFinite(e.afterSeconds) || e.afterSeconds < 0) throw errors.invalidInput(`entries.${i}.afterSeconds must be a number ≥ 0.`);
  });
  return transact(deps, (tx) => {
    const run = (tx.getMeta<number>('chainScriptSeq') ?? 0) + 1;
    tx.setMeta('chainScriptSeq', run);
    // A script holds one job at a time, its next entry's, however many entries it has: each
    // entry, when it runs, schedules the one due after it. Every entry's sequence number is
    // drawn now, in file order, so that jobs due at one instant run in the order they would
    // if each entry had its own job from the start.
    const firstSeq = reserveJobSeqs(tx, script.entries.length);
    const entries = script.entries.map((e, i) => ({
      id: `${name}:${run}:${String(i).padStart(6, '0')}`,
      script: name,
      chain: e.chain,
      logs: e.reorg ? (e.reorg.logs ?? []) : (e.logs ?? []),
      count: e.count ?? 1,
      reorgDepth: e.reorg?.depth ?? null,
      dueAtMs: deps.clock.now() + Math.round(e.afterSeconds * 1000),
      seq: firstSeq + i,
    }));
    const inOrder = entries.sort((a, b) => a.dueAtMs - b.dueAtMs || a.seq - b.seq);
    inOrder.forEach((entry, i) => tx.put('chainScriptEntries', { ...entry, next: inOrder[i + 1]?.id ?? null }));
    if (inOrder.length > 0) scheduleAs(tx, 'chain.script', inOrder[0].id, inOrder[0].dueAtMs, inOrder[0].seq);
    return { script: name, scheduled: script.entries.length };
  });
}

/** The 'chain.script' job, inside the job's own transaction: mines the entry's block (or reorgs) at its time, and schedules the script's next entry. */
export function runChainScriptEntry(deps: ChainDeps, tx: StoreTx, id: string): void {
  const entry = tx.get('chainScriptEntries', id);
  if (!entry) return;
  if (entry.reorgDepth !== null) reorgAndRetract(deps, tx, entry.chain, entry.reorgDepth, entry.logs);
  else mineAndWake(deps, tx, entry.chain, entry.count, entry.logs);
  tx.delete('chainScriptEntries', id);
  const next = entry.next === null ? undefined : tx.get('chainScriptEntries', entry.next);
  if (next) scheduleAs(tx, 'chain.script', next.id, next.dueAtMs, next.seq);
}

