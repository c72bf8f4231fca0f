import { createHash } from 'node:crypto';

/**
 * Simulated chain heads advance with the virtual clock at a fixed cadence per
 * chain; a block's hash derives from (chain, number, generation), where the
 * generation grows each time a reorg replaces that block. Empty blocks are
 * never materialised: any block's number and hash are computed on demand.
 */
export const CHAIN_CADENCE_MS: Record<string, number> = { ethereum: 12_000, base: 2_000, chainx: 5_000, solana: 400 };
/** Block number at the simulated epoch, per chain. */
export const CHAIN_GENESIS: Record<string, bigint> = { ethereum: 21_000_000n, base: 24_000_000n, chainx: 1_000_000n, solana: 300_000_000n };

/** The head a chain reaches by itself at `nowMs`, counting from its genesis block at the simulated epoch (the clock's epochMs). */
export function naturalHead(chain: string, nowMs: number, epochMs: number): bigint {
  const elapsed = Math.max(0, nowMs - epochMs);
  return CHAIN_GENESIS[chain] + BigInt(Math.floor(elapsed / CHAIN_CADENCE_MS[chain]));
}

export function blockHash(chain: string, number: bigint, generation: number): string {
  return `0x${createHash('sha256').update(`understudy-block:${chain}:${number}:${generation}`).digest('hex')}`;
}
