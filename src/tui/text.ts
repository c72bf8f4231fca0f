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

/**
 * The pieces a word longer than a line may be broken into: after `=`, `/`,
 * `,`, `&`, `?` or `:` (so `hash=HEX` puts the hash on a line of its own, and
 * a path continues after a slash), never inside an id, a hash or an amount.
 */
function pieces(word: string): string[] {
  return word.match(/[^=/,&?:]*(?:[=/,&?:]+|$)/g)?.filter(Boolean) ?? [word];
}

/**
 * Word-wraps to `width`. A word longer than a line is broken at its
 * punctuation (pieces), and only a piece longer than a whole line is split.
 * Keeps every line within width.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    const place = (piece: string, joiner: string) => {
      if (!line) line = piece;
      else if (line.length + joiner.length + piece.length <= width) line += `${joiner}${piece}`;
      else {
        lines.push(line);
        line = piece;
      }
    };
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (word.length <= width) {
        place(word, ' ');
        continue;
      }
      for (const [index, piece] of pieces(word).entries()) {
        let rest = piece;
        while (rest.length > width) {
          if (line) lines.push(line);
          line = '';
          lines.push(rest.slice(0, width));
          rest = rest.slice(width);
        }
        if (rest) place(rest, index === 0 ? ' ' : '');
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
