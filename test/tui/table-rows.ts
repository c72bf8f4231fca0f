import { formatProfileAmount } from '../../src/tui/amount.ts';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line ink-table draws for a row: each cell between borders, padded with blanks on either side. */
export const tableRow = (...cells: string[]) => new RegExp(`│${cells.map((cell) => ` +${escaped(cell)} +`).join('│')}│`);

/** A row of an amount table: its part, the amount in the asset's units and the exact atomic string. */
export const amountRow = (part: string, atomic: string, profile = 'local_custody') => tableRow(part, formatProfileAmount(atomic, profile), atomic);

/** The rows of the billing's settlement table: the charge, then the three parts it is made of. */
export const settlementRows = (s: { chargedAtomic: string; creatorFeeAtomic: string; platformFeeAtomic: string; executionChargeAtomic: string }) => [
  amountRow('charged', s.chargedAtomic),
  amountRow('creator fee', s.creatorFeeAtomic),
  amountRow('platform fee', s.platformFeeAtomic),
  amountRow('execution', s.executionChargeAtomic),
];
