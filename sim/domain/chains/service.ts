import { mineAndWake, parseChainScript, reorgAndRetract, scheduleChainScript } from './chain-scripts.ts';
import { assertChain, blocksFrom, chainView, type LogInput } from './chains.ts';
import { transact } from '../context.ts';
import type { ChainDeps } from './chain-deps.ts';
import type { ChainLog } from './records.ts';

export interface ChainsDependencies {
  /** Runs the jobs now due, so that monitors whose window just completed look at once. */
  runDue: () => Promise<unknown>;
  /** The text of a chain script by name, or null when there is none. */
  readScript: (name: string) => Promise<string | null>;
}

const logSummary = (l: ChainLog) => ({ blockNumber: l.blockNumber, logIndex: l.logIndex, transactionHash: l.transactionHash, address: l.address, event: l.event });

/** The simulated chains (contract section 2): blocks, reorgs and scripted events, each waking the monitors that watch them. */
export function createChains(deps: ChainDeps, { runDue, readScript }: ChainsDependencies) {
  return {
    view(chain: string) {
      assertChain(chain);
      return chainView(deps, chain);
    },
    async mine(chain: string, count: number, logs: LogInput[]) {
      assertChain(chain);
      const mined = transact(deps, (tx) => mineAndWake(deps, tx, chain, count, logs));
      // Before the due jobs run: a scripted reorg among them would replace these blocks.
      const blocks = blocksFrom(deps.store, chain, mined.first, count);
      await runDue();
      return { blocks, logs: mined.logs.map(logSummary) };
    },
    async reorg(chain: string, depth: number, logs: LogInput[]) {
      assertChain(chain);
      const replaced = transact(deps, (tx) => reorgAndRetract(deps, tx, chain, depth, logs));
      await runDue();
      return { removed: replaced.removed.map(logSummary), blocks: replaced.blocks };
    },
    async runScript(name: string) {
      return scheduleChainScript(deps, name, parseChainScript(name, await readScript(name)));
    },
  };
}

export type ChainsService = ReturnType<typeof createChains>;
