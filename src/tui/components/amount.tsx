import { Text } from 'ink';
import { formatProfileAmount } from '../amount.ts';

/** An atomic amount of a profile's asset, written as formatProfileAmount writes every amount; `exact` adds the atomic string. */
export function Amount({ atomic, profile, exact, color }: { atomic: string; profile: string; exact?: boolean; color?: string }) {
  return <Text color={color}>{formatProfileAmount(atomic, profile, { exact })}</Text>;
}
