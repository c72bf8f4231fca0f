import { Text } from 'ink';
import { filledCells } from '../amount.ts';
import { theme } from '../theme.ts';

/** A bar of `width` cells filled by part/whole (atomic strings or integers), with a caption after it. */
export function Bar({ part, whole, width = 20, color = theme.barFilled, caption }: { part: string | number; whole: string | number; width?: number; color?: string; caption?: string }) {
  // A non-zero part shows at least one cell, so a small charge is still visible.
  const filled = Math.max(filledCells(String(part), String(whole), width), String(part) !== '0' && String(whole) !== '0' ? 1 : 0);
  return (
    <Text>
      <Text color={color}>{'█'.repeat(filled)}</Text>
      <Text color={theme.barEmpty}>{'░'.repeat(width - filled)}</Text>
      {caption ? <Text> {caption}</Text> : null}
    </Text>
  );
}
