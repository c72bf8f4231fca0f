import { Text } from 'ink';
import { formatProfileAmount } from '../amount.ts';

/** An atomic amount of a profile's asset, in whole units with the asset's symbol. */
export function Amount({ atomic, profile, color }: { atomic: string; profile: string; color?: string }) {
  return <Text color={color}>{formatProfileAmount(atomic, profile)}</Text>;
}
