import { formatProfileAmount, hasUnits } from './amount.ts';

/**
 * Run event messages (spec 2.9) are free text; the simulator writes the
 * amounts in them as atomic integers, like every amount on the wire (spec
 * 2.1): "Accepted; 8160000000000000 reserved", "Settled: charged 7353500",
 * "AI analysis used 1875000000000000 of the model cost cap". A message does
 * not say which of its numbers are money, so an integer counts as an amount
 * only when a money verb stands right beside it; counts of reads, blocks or
 * attempts never do, and stay as they are.
 */
const MONEY_WORDS = 'reserved|charged|held|released|returned|refunded|used';
const AMOUNT_IN_MESSAGE = new RegExp(`\\b(?:(?<before>${MONEY_WORDS}) (?<after>0|[1-9][0-9]*)\\b|(?<amount>0|[1-9][0-9]*) (?=(?:${MONEY_WORDS})\\b))`, 'g');

/**
 * The message with each amount it names in units, as formatProfileAmount
 * writes them. Units only: the timeline is read as a story, and the exact
 * atomic strings are a key away, on the billing and receipt views.
 */
export function messageWithUnits(message: string, profile: string | null | undefined): string {
  return message.replace(AMOUNT_IN_MESSAGE, (whole, ...rest) => {
    const groups = rest[rest.length - 1] as { before?: string; after?: string; amount?: string };
    const atomic = groups.after ?? groups.amount!;
    if (!hasUnits(atomic, profile)) return whole;
    const written = formatProfileAmount(atomic, profile);
    return groups.before ? `${groups.before} ${written}` : `${written} `;
  });
}
