import { Text } from 'ink';
import { barCells } from '../amount.ts';
import { theme } from '../theme.ts';

/** A bar of `width` cells filled by part/whole (atomic strings or integers), with a caption after it; » ends a part larger than the whole. */
export function Bar({ part, whole, width = 20, color = theme.barFilled, caption }: { part: string | number; whole: string | number; width?: number; color?: string; caption?: string }) {
  const { filled, isOffScale } = barCells(String(part), String(whole), width);
  return (
    <Text>
      <Text color={color}>{isOffScale ? `${'█'.repeat(width - 1)}»` : '█'.repeat(filled)}</Text>
      <Text color={theme.barEmpty}>{'░'.repeat(width - filled)}</Text>
      {caption ? <Text> {caption}</Text> : null}
    </Text>
  );
}
