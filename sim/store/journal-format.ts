import { checkFrame, frame } from './checksum.ts';
import { StoreFileError } from './store-file-error.ts';

/**
 * What the journal's lines hold and how they are read back: the header naming
 * the snapshot a journal follows, one checksummed line per change, and the
 * checks that refuse a damaged, cut or reordered journal at open.
 */

/** One transaction's writes: [collection, id, row or null for a delete]. */
export type JournalOp = [collection: string, id: string, row: { readonly id: string } | null];

export interface JournalEntry {
  s: number;
  o: JournalOp[];
  m?: Array<[string, unknown]>;
}

/**
 * The journal's first line: it is generation `journal`, and its first entry is
 * `after + 1`. The snapshot names the generation that follows it, so a journal
 * emptied, cut into, swapped for another or left behind by a later snapshot is
 * told apart from one that merely holds nothing yet.
 */
export interface JournalHeader {
  journal: number;
  after: number;
}

export const journalHeader = (journal: number, after: number): string => `${frame(JSON.stringify({ journal, after }))}\n`;

export const journalLine = (entry: JournalEntry): string => `${frame(JSON.stringify(entry))}\n`;

/** The sequence number of a journalLine, read from its first field without parsing the rest. */
export function seqOf(line: string): number {
  const match = /^\{"s":(\d+)[,}]/.exec(line);
  if (!match) throw new Error(`not a journal entry: ${line.slice(0, 40)}`);
  return Number(match[1]);
}

/** An entry and where it is (for refusals naming it). */
export interface PlacedEntry {
  entry: JournalEntry;
  line: number;
  byte: number;
}

export interface ParsedJournal {
  header: JournalHeader | null;
  entries: PlacedEntry[];
  /** Bytes up to the end of the last complete line: what follows is a torn tail. */
  validLength: number;
}

const NEWLINE = 0x0a;

/**
 * Reads a journal's bytes, checking every complete line's checksum. Only a torn
 * tail (bytes after the last newline: a crash mid-append, never acknowledged,
 * since answers wait for the flush) is left out.
 */
export function parseJournal(path: string, bytes: Buffer): ParsedJournal {
  let header: JournalHeader | null = null;
  const entries: PlacedEntry[] = [];
  let offset = 0;
  let line = 0;
  for (let end = bytes.indexOf(NEWLINE, offset); end !== -1; end = bytes.indexOf(NEWLINE, offset)) {
    line += 1;
    const where = `line ${line} (byte ${offset})`;
    const check = checkFrame(bytes, offset, end);
    if (check === 'damaged') throw new StoreFileError(path, `${where} does not match its checksum: the file was damaged or edited`);
    if (check === 'unframed') throw new StoreFileError(path, `${where} has no checksum: the file was damaged or edited`);
    let value: Partial<JournalEntry & JournalHeader> | null;
    try {
      value = JSON.parse(bytes.toString('utf8', offset, end));
    } catch (error) {
      throw new StoreFileError(path, `${where} is not valid JSON (${(error as Error).message})`);
    }
    if (line === 1 && isHeader(value)) header = { journal: value.journal, after: value.after };
    else if (typeof value?.s === 'number' && Array.isArray(value.o)) entries.push({ entry: value as JournalEntry, line, byte: offset });
    else throw new StoreFileError(path, `${where} is not a journal entry`);
    offset = end + 1;
  }
  // A crash leaves a prefix of what one append wrote, and a line is always
  // followed by its newline in it: a whole line followed by anything else is a
  // damaged newline, and the acknowledged line it ends must not be dropped.
  if (bytes.length - offset > 1 && checkFrame(bytes, offset, bytes.length - 1) === 'ok') {
    throw new StoreFileError(path, `line ${line + 1} (byte ${offset}) is complete but the newline ending it at byte ${bytes.length - 1} is damaged`);
  }
  return { header, entries, validLength: offset };
}

function isHeader(value: unknown): value is JournalHeader {
  const v = value as Partial<JournalHeader> | null;
  return typeof v === 'object' && v !== null && !('s' in v) && Number.isSafeInteger(v.journal) && Number.isSafeInteger(v.after);
}

/**
 * The entries of `parsed` that come after the snapshot at `seq`, checking that
 * none is missing, repeated or out of order: sequence numbers go up by one from
 * the header's `after`, except for one step to `seq + 1` (a reset or import
 * advances the sequence with no line, and a snapshot may hold lines its journal
 * never flushed).
 */
export function entriesAfter(path: string, parsed: ParsedJournal, seq: number): JournalEntry[] {
  const out: JournalEntry[] = [];
  let previous = parsed.header?.after ?? null;
  for (const { entry, line, byte } of parsed.entries) {
    const expected = entry.s > seq && (previous === null || previous < seq) ? seq + 1 : previous === null ? entry.s : previous + 1;
    if (entry.s !== expected) {
      throw new StoreFileError(path, `line ${line} (byte ${byte}) holds change ${entry.s} where change ${expected} belongs: lines were removed, repeated or reordered`);
    }
    previous = entry.s;
    if (entry.s > seq) out.push(entry);
  }
  return out;
}
