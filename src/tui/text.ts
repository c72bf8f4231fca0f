/** Fitting text into terminal cells. Console text is ASCII plus a few single-width symbols. */

/** Exactly `width` cells: cut with an ellipsis, or padded on the side away from `align`. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const flat = text.replace(/\s+/g, ' ');
  const cut = flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
  return align === 'left' ? cut.padEnd(width) : cut.padStart(width);
}

/** Like fit, but keeps runs of spaces (columns built by padding): only line breaks become spaces. */
export function clip(text: string, width: number): string {
  if (width <= 0) return '';
  const flat = text.replace(/[\r\n\t]/g, ' ');
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat.padEnd(width);
}

/** Word-wraps to `width`; words longer than a line are split. Keeps every line within width. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (rest.length > width) {
        if (line) {
          lines.push(line);
          line = '';
        }
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
      if (!line) line = rest;
      else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** The terminal's size, with the 80×24 the console is laid out for as the fallback. */
export function terminalSize(stdout: { columns?: number; rows?: number }): { columns: number; rows: number } {
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}
