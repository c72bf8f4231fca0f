import { useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { chromeRows } from './chrome-rows.ts';
import { useConsole } from './state/context.tsx';
import { terminalSize } from './text.ts';


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

/**
 * The terminal's size and the rows a screen body may use: every row the
 * frame around it (chrome-rows.ts) leaves, so scroll panes use them all and
 * every screen fits 80×24 and grows with the terminal.
 */
export function useViewport(): { columns: number; rows: number; bodyRows: number } {
  const { columns, rows } = useTerminalSize();
  const chrome = useConsole((state) => chromeRows(state, columns));
  return { columns, rows, bodyRows: Math.max(8, rows - chrome) };
}
