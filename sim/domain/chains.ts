import { blockHash, naturalHead } from './chain-time.ts';
import type { Deps, StoreTx } from './context.ts';

/**
 * Per chain, the state that differs from the natural cadence: blocks mined
 * ahead of it (POST /sim/chains/{chain}/blocks), and the reorg generation of
 * replaced blocks. Kept in store meta `chain:<name>`.
 */
export interface ChainState {
  /** Blocks mined on demand beyond the natural head. */
  extraBlocks: string;
  /** Block number → generation, for blocks a reorg replaced. */
  generations: Record<string, number>;
}

const EMPTY: ChainState = { extraBlocks: '0', generations: {} };

export function chainState(tx: Pick<StoreTx, 'getMeta'>, chain: string): ChainState {
  return tx.getMeta<ChainState>(`chain:${chain}`) ?? EMPTY;
}

export function headOf(deps: Deps, tx: Pick<StoreTx, 'getMeta'>, chain: string): bigint {
  return naturalHead(chain, deps.clock.now()) + BigInt(chainState(tx, chain).extraBlocks);
}

export function hashOf(tx: Pick<StoreTx, 'getMeta'>, chain: string, number: bigint): string {
  return blockHash(chain, number, chainState(tx, chain).generations[number.toString()] ?? 0);
}

/** Whether a block observed earlier (number and hash) is still on the canonical chain. */
export function isCanonical(deps: Deps, tx: Pick<StoreTx, 'getMeta'>, chain: string, number: bigint, hash: string): boolean {
  return number <= headOf(deps, tx, chain) && hashOf(tx, chain, number) === hash;
}
