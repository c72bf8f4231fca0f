import type { ChainDeps } from './chain-deps.ts';
import { CHAIN_CADENCE_MS, blockHash, naturalHead } from './chain-time.ts';
import { iso, type StoreTx, type Deps } from '../context.ts';
import { errors } from '../errors.ts';
import { logId } from './log-id.ts';
import type { ChainLog } from './records.ts';

/**
 * Scripted chains. Per chain, what differs from the natural cadence lives in
 * store meta `chain:<name>`: blocks mined ahead of the cadence, and the reorg
 * generation of replaced blocks. Logs are records, indexed by block number;
 * which blocks hold logs comes from the in-memory MonitorIndex (built from the
 * chainLogs collection), so the meta stays small. Nothing is done per empty
 * block: heads and hashes are computed on demand.
 */
export const MONITOR_CHAINS = ['ethereum', 'base', 'chainx'] as const;

export interface ChainState {
  extraBlocks: string;
  generations: Record<string, number>;
}

export interface LogInput {
  address: string;
  event: string;
  args: Record<string, string>;
  transactionHash?: string;
}

/** The chain's meta; a `logBlocks` list kept there by earlier versions is ignored (and dropped at the next write). */
export function chainState(tx: Pick<StoreTx, 'getMeta'>, chain: string): ChainState {
  const saved = tx.getMeta<Partial<ChainState>>(`chain:${chain}`);
  return { extraBlocks: saved?.extraBlocks ?? '0', generations: saved?.generations ?? {} };
}

export function headOf(deps: Deps, tx: Pick<StoreTx, 'getMeta'>, chain: string): bigint {
  return naturalHead(chain, deps.clock.now(), deps.clock.epochMs) + BigInt(chainState(tx, chain).extraBlocks);
}

export function hashOf(tx: Pick<StoreTx, 'getMeta'>, chain: string, number: bigint): string {
  return blockHash(chain, number, chainState(tx, chain).generations[number.toString()] ?? 0);
}

/** Whether a block observed earlier (number and hash) is still on the canonical chain. */
export function isCanonical(deps: Deps, tx: Pick<StoreTx, 'getMeta'>, chain: string, number: bigint, hash: string): boolean {
  return number <= headOf(deps, tx, chain) && hashOf(tx, chain, number) === hash;
}

/** Milliseconds until the natural head reaches `block` (0 if it already has). */
export function msUntilBlock(deps: Deps, tx: Pick<StoreTx, 'getMeta'>, chain: string, block: bigint): number {
  const head = headOf(deps, tx, chain);
  if (block <= head) return 0;
  return Number(block - head) * CHAIN_CADENCE_MS[chain];
}

export { logId };

function putLogs(deps: Deps, tx: StoreTx, chain: string, block: bigint, generation: number, logs: LogInput[], firstIndex = 0): ChainLog[] {
  const written = logs.map((log, i) => {
    const logIndex = firstIndex + i;
    const record: ChainLog = {
      id: logId(chain, block, logIndex),
      chain,
      blockNumber: block.toString(),
      logIndex,
      transactionHash: log.transactionHash ?? `0x${deps.random.hex(32)}`,
      address: log.address.toLowerCase(),
      event: log.event,
      args: log.args,
      generation,
      removed: false,
    };
    tx.put('chainLogs', record);
    return record;
  });
  return written;
}

function saveState(tx: StoreTx, chain: string, state: ChainState): void {
  tx.setMeta(`chain:${chain}`, { extraBlocks: state.extraBlocks, generations: state.generations });
}

export function assertChain(chain: string): void {
  if (!(MONITOR_CHAINS as readonly string[]).includes(chain)) throw errors.notFound(`No simulated chain is named '${chain}' (chains: ${MONITOR_CHAINS.join(', ')}).`);
}

/** POST /sim/chains/{chain}/blocks and a script's entry: mines `count` blocks now, the logs in the first (whose number is returned). */
export function mineBlocks(deps: Deps, tx: StoreTx, chain: string, count: number, logs: LogInput[]): { first: bigint; logs: ChainLog[] } {
  const state = chainState(tx, chain);
  const first = headOf(deps, tx, chain) + 1n;
  const next: ChainState = { ...state, extraBlocks: (BigInt(state.extraBlocks) + BigInt(count)).toString() };
  saveState(tx, chain, next);
  const written = putLogs(deps, tx, chain, first, next.generations[first.toString()] ?? 0, logs);
  return { first, logs: written };
}

/**
 * Numbers and hashes of `count` blocks from `first`, as POST /sim/chains/{chain}/blocks
 * answers them. Only the route asks: a script's entry has nobody to tell, and hashing
 * its block was one SHA-256 in each of the 30-day fast-forward's 10,000 entries.
 */
export function blocksFrom(tx: Pick<StoreTx, 'getMeta'>, chain: string, first: bigint, count: number): Array<{ number: string; hash: string }> {
  return Array.from({ length: count }, (_, i) => ({ number: (first + BigInt(i)).toString(), hash: hashOf(tx, chain, first + BigInt(i)) }));
}

/** Logs in blocks [from, to] still on the canonical chain, in (block, index) order (this transaction's writes included). */
export function logsBetween(deps: ChainDeps, tx: Pick<StoreTx, 'get' | 'written'>, chain: string, from: bigint, to: bigint): ChainLog[] {
  const out: ChainLog[] = [];
  for (const n of deps.monitorIndex.blocksBetween(tx, chain, from, to)) {
    for (let i = 0; ; i += 1) {
      const log = tx.get('chainLogs', logId(chain, n, i));
      if (!log) break;
      if (!log.removed) out.push(log);
    }
  }
  return out;
}

/** The first block ≥ from that holds logs (removed ones too: a reorg never empties the set), at `addresses` when given, or null; this transaction's writes included. */
export function nextLogBlock(deps: ChainDeps, tx: Pick<StoreTx, 'written'>, chain: string, from: bigint, addresses: readonly string[] | null = null): bigint | null {
  return deps.monitorIndex.nextLogBlock(tx, chain, from, addresses);
}

/**
 * POST /sim/chains/{chain}/reorg: replaces the newest `depth` blocks with new
 * ones (new hashes); their logs are removed and the given logs go into the
 * first replacement block.
 */
export function reorg(deps: Deps, tx: StoreTx, chain: string, depth: number, logs: LogInput[]): { removed: ChainLog[]; blocks: Array<{ number: string; hash: string }> } {
  const head = headOf(deps, tx, chain);
  const first = head - BigInt(depth) + 1n;
  const state = chainState(tx, chain);
  const generations = { ...state.generations };
  const removed: ChainLog[] = [];
  for (let n = first; n <= head; n += 1n) {
    generations[n.toString()] = (generations[n.toString()] ?? 0) + 1;
    for (let i = 0; ; i += 1) {
      const log = tx.get('chainLogs', logId(chain, n, i));
      if (!log) break;
      if (!log.removed) {
        const gone = { ...log, removed: true };
        tx.put('chainLogs', gone);
        removed.push(gone);
      }
    }
  }
  if (logs.length > 0) {
    // Replacement logs take indexes after any removed ones in that block.
    let index = 0;
    while (tx.get('chainLogs', logId(chain, first, index))) index += 1;
    putLogs(deps, tx, chain, first, generations[first.toString()], logs, index);
  }
  saveState(tx, chain, { ...state, generations });
  const blocks = [];
  for (let n = first; n <= head; n += 1n) blocks.push({ number: n.toString(), hash: hashOf(tx, chain, n) });
  return { removed, blocks };
}

export function chainView(deps: Deps, chain: string) {
  const head = headOf(deps, deps.store, chain);
  return { chain, head: head.toString(), headHash: hashOf(deps.store, chain, head), cadenceMs: CHAIN_CADENCE_MS[chain], at: iso(deps.clock.now()) };
}
