import { SCREEN_KEYS } from '../../src/tui/keys.ts';

/** The checks of what "fits" means (the rules are listed in widths.test.tsx), shared by the tests that look at frames. */

const LEFT_TO_RIGHT: Record<string, string> = { '│': '│', '╭': '╮', '╰': '╯', '┌': '┐', '├': '┤', '└': '┘' };
const BOX_DRAWING = /[─│┌┐└┘├┤┬┴┼╭╮╯╰]/;
const ID_ABBREVIATION = /(?:^|[^0-9A-Za-z])[0-9a-f]{8}…$/;

export const plain = (frame: string) => frame.replace(/\u001B\[[0-9;]*m/g, '');

/** Every way a frame fails to fit a terminal of `columns`, one message per problem, with the line. */
export function fitProblems(frame: string, columns: number): string[] {
  const problems: string[] = [];
  for (const [index, line] of plain(frame).split('\n').entries()) {
    const cells = [...line];
    const where = `line ${index + 1} ${JSON.stringify(line)}`;
    if (cells.length > columns) problems.push(`${where}: ${cells.length} columns, wider than ${columns}`);
    const trimmed = line.trim();
    if (BOX_DRAWING.test(trimmed)) {
      const partner = LEFT_TO_RIGHT[trimmed[0]];
      if (!partner || !trimmed.endsWith(partner)) problems.push(`${where}: a torn box (border without its partner)`);
    }
    const cuts = cells.filter(
      (cell, at) => cell === '…' && at > 0 && /[0-9A-Za-z]/.test(cells[at - 1]) && [' ', '│', undefined].includes(cells[at + 1]) && !ID_ABBREVIATION.test(cells.slice(0, at + 1).join('')),
    );
    if (cuts.length > 0) {
      const body = line.replace(/^[\s│╭╰]+/, '').replace(/│\s*$/, '');
      const blankAtEnd = columns - line.trimEnd().length;
      if (/ {3,}/.test(body.trimEnd()) || (!line.trimEnd().endsWith('│') && blankAtEnd >= 2)) problems.push(`${where}: a label cut while the line has room`);
    }
  }
  const tabs = plain(frame).split('\n')[0] ?? '';
  for (const tab of SCREEN_KEYS) {
    if (!tabs.includes(`${tab.key}${tab.short}`) && !tabs.includes(`${tab.key} ${tab.label}`)) problems.push(`tab bar ${JSON.stringify(tabs)}: screen ${tab.key} is not named whole`);
  }
  return problems;
}

const VALUES = [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, /[0-9a-f]{64}/g, /\d{10,}/g];
const PATH = /[\w.-]*\/[\w.{}:/-]*[\w}]/g;
/** A value's characters at a line's end and a line's start (inside a box, after its border). */
const TAIL = /[\w.{}:/=-]+$/;
const HEAD = /^[\w.{}:/=-]+/;
/** An ellipsis right after a value's characters, or after them and one blank. */
const CUT_VALUE = /(?:\d{6,}|[0-9a-f]{9,}|[\w.-]*\/[\w./-]*) ?…(?= |│|$)/;
const inner = (line: string) => line.replace(/^\s*│?\s*/, '').replace(/\s*│?\s*$/, '');
const whole = (text: string, patterns = VALUES) => patterns.flatMap((pattern) => text.match(pattern) ?? []);

/** Every exact value cut with '…', or split across two lines while it would have fit one. */
export function exactValueProblems(frame: string, columns: number): string[] {
  const problems: string[] = [];
  const lines = plain(frame).split('\n');
  for (const [index, line] of lines.entries()) {
    const where = `line ${index + 1} ${JSON.stringify(line)}`;
    const cut = CUT_VALUE.exec(line);
    if (cut && !ID_ABBREVIATION.test(line.slice(0, cut.index + cut[0].length))) problems.push(`${where}: an exact value cut (${cut[0]})`);
    const next = lines[index + 1];
    if (next === undefined) continue;
    const tail = TAIL.exec(inner(line))?.[0];
    const head = HEAD.exec(inner(next))?.[0];
    if (!tail || !head) continue;
    // Two words a line break separates may look like one path when joined; a path was broken inside when the break follows a slash, or precedes one after a slash.
    const isPathBreak = tail.endsWith('/') || (head.startsWith('/') && tail.includes('/'));
    const joined = whole(tail + head, isPathBreak ? [...VALUES, PATH] : VALUES).filter((value) => value.length <= columns - 2 && !tail.includes(value) && !head.includes(value));
    for (const value of joined) problems.push(`${where}: ${value} split across lines ${index + 1} and ${index + 2}`);
  }
  return problems;
}

/** A pane with lines scrolled off while the frame leaves rows of the terminal empty. */
export function wastedRowProblems(frame: string, rows: number): string[] {
  const position = /lines (\d+)–(\d+) of (\d+)/.exec(plain(frame));
  if (!position) return [];
  const [first, last, total] = position.slice(1).map(Number);
  const height = plain(frame).split('\n').length;
  if ((first > 1 || last < total) && height < rows) return [`${position[0]} while ${rows - height} of ${rows} rows are empty`];
  return [];
}

