import type { Rail } from '../catalog/index.ts';

/** The rail notice returned with quotes, acceptances and billing (spec 2.7, 2.10, 2.11). */
export const RAIL_NOTICE: Record<Rail, string> = {
  'solana-custody':
    'Solana custody rail: the quote maximum is reserved from your custodial SOL or USDC balance at acceptance; only the settled charge is debited and the rest returns to your available balance.',
  custody:
    'Local-custody rail: the quote maximum is reserved from your ETH balance on the chainx chain held in local custody; only the settled charge is debited and the rest returns to your available balance.',
  rehearsal: 'Local rehearsal rail: amounts are in SIM rehearsal credit and never move real funds.',
};
