import { Text } from 'ink';
import { filledCells, formatProfileAmount, percentOf } from '../amount.ts';
import { theme } from '../theme.ts';

/** The key's committed spend against its lifetime limit (spec 2.3, part 5 "Spend limit"). */
export function SpendBar({ usedAtomic, limitAtomic, profile, width = 24 }: { usedAtomic: string; limitAtomic: string; profile: string; width?: number }) {
  const filled = filledCells(usedAtomic, limitAtomic, width);
  const percent = percentOf(usedAtomic, limitAtomic);
  const color = percent >= 90 ? theme.error : percent >= 70 ? theme.warn : theme.barFilled;
  return (
    <Text>
      <Text color={color}>{'█'.repeat(filled)}</Text>
      <Text color={theme.barEmpty}>{'░'.repeat(width - filled)}</Text>
      <Text> {String(percent).padStart(3)}%  </Text>
      <Text>{formatProfileAmount(usedAtomic, profile)}</Text>
      <Text color={theme.muted}> of {formatProfileAmount(limitAtomic, profile)}</Text>
    </Text>
  );
}
