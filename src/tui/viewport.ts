import { useStdout } from 'ink';
import { terminalSize } from './text.ts';

/**
 * Rows the console's frame takes around a screen: the two header lines
 * (screens, clock), the error or notice lines and the hint bar (which may
 * wrap to two lines in 80 columns).
 */
export const CHROME_ROWS = 7;

/** The terminal's size and the rows a screen body may use, so every screen fits 80×24 and grows with the terminal. */
export function useViewport(): { columns: number; rows: number; bodyRows: number } {
  const { columns, rows } = terminalSize(useStdout().stdout);
  return { columns, rows, bodyRows: Math.max(8, rows - CHROME_ROWS) };
}
