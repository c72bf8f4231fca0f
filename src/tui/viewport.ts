import { useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { terminalSize } from './text.ts';

/**
 * Rows the console's frame takes around a screen: the two header lines
 * (screens, clock), the error or notice lines and the hint bar (which may
 * wrap to two lines in 80 columns).
 */
export const CHROME_ROWS = 7;

/**
 * The terminal's size, read again when the terminal is resized: Ink lays the
 * frame out anew on a resize but does not re-render the components that
 * measured the old width, so each one that measures listens itself. The
 * size is also read once the listener is in place, for a resize that came
 * between the first render and the subscription.
 */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const sizeKey = () => {
    const { columns, rows } = terminalSize(stdout);
    return `${columns}x${rows}`;
  };
  // A string, so that an unchanged size re-renders nothing.
  const [, setSize] = useState(sizeKey);
  useEffect(() => {
    const onResize = () => setSize(sizeKey());
    stdout.on('resize', onResize);
    onResize();
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return terminalSize(stdout);
}

/** The terminal's size and the rows a screen body may use, so every screen fits 80×24 and grows with the terminal. */
export function useViewport(): { columns: number; rows: number; bodyRows: number } {
  const { columns, rows } = useTerminalSize();
  return { columns, rows, bodyRows: Math.max(8, rows - CHROME_ROWS) };
}
