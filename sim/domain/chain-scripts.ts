import { assertChain, mineBlocks, reorg, type LogInput } from './chains.ts';
import { transact, type Deps } from './context.ts';
import { errors } from './errors.ts';
import { schedule } from './jobs.ts';
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

export function scheduleChainScript(deps: Deps, name: string, script: ChainScript): { script: string; scheduled: number } {
  script.entries.forEach((e, i) => {
    assertChain(e.chain);
    if (!Number.isFinite(e.afterSeconds) || e.afterSeconds < 0) throw errors.invalidInput(`entries.${i}.afterSeconds must be a number ≥ 0.`);
  });
  return transact(deps, (tx) => {
    const run = (tx.getMeta<number>('chainScriptSeq') ?? 0) + 1;
    tx.setMeta('chainScriptSeq', run);
    script.entries.forEach((e, i) => {
      const id = `${name}:${run}:${String(i).padStart(6, '0')}`;
      tx.put('chainScriptEntries', { id, script: name, chain: e.chain, logs: e.reorg ? (e.reorg.logs ?? []) : (e.logs ?? []), count: e.count ?? 1, reorgDepth: e.reorg?.depth ?? null });
      schedule(tx, 'chain.script', id, deps.clock.now() + Math.round(e.afterSeconds * 1000));
    });
    return { script: name, scheduled: script.entries.length };
  });
}

/** The 'chain.script' job: mines the entry's block (or reorgs) at its time. */
export function runChainScriptEntry(deps: Deps, id: string): void {
  transact(deps, (tx) => {
    const entry = tx.get('chainScriptEntries', id);
    if (!entry) return;
    if (entry.reorgDepth !== null) {
      const replaced = reorg(deps, tx, entry.chain, entry.reorgDepth, entry.logs);
      retractForReorg(deps, tx, entry.chain, replaced.removed, BigInt(replaced.blocks[0].number));
    } else {
      mineBlocks(deps, tx, entry.chain, entry.count, entry.logs);
      wakeMonitors(deps, tx, entry.chain);
    }
    tx.delete('chainScriptEntries', id);
  });
}

