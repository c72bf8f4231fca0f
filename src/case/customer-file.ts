import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { CaseInputError } from './input-error.ts';

/**
 * Reads one customer document: only from a regular file (a symbolic link, a
 * FIFO, a socket or a device is refused before it is opened, so nothing it
 * leads to is read or printed, and nothing blocks), at most
 * MAX_DOCUMENT_BYTES, nested at most MAX_DOCUMENT_DEPTH levels (counted over
 * the text before JSON.parse, whose recursion could otherwise overflow the
 * stack), UTF-8, JSON. Every refusal names the file.
 */

/** 16 MiB: sixteen times the largest report the catalog lets a run write (maximumOutputBytes, 1 MiB), with its events and pretty-printing. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** 64 levels: the service's documents nest 6 deep; every recursive walk of a document in the kit stays far from the stack's limit. */
export const MAX_DOCUMENT_DEPTH = 64;

/** Where a document was read from: the output of a command is never written over it. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export interface CustomerFile {
  value: unknown;
  identity: FileIdentity;
}

const KINDS: Array<[string, (s: Stats) => boolean]> = [
  ['a symbolic link', (s) => s.isSymbolicLink()],
  ['a directory', (s) => s.isDirectory()],
  ['a FIFO', (s) => s.isFIFO()],
  ['a socket', (s) => s.isSocket()],
  ['a character device', (s) => s.isCharacterDevice()],
  ['a block device', (s) => s.isBlockDevice()],
];

/** What a path is when it is not a regular file ("a symbolic link", "a FIFO"), or null for a regular file. */
export function notAFile(info: Stats): string | null {
  if (info.isFile()) return null;
  return KINDS.find(([, is]) => is(info))?.[0] ?? 'not a regular file';
}

export async function readCustomerFile(file: string): Promise<CustomerFile> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    throw new CaseInputError(file, '(file)', `cannot be read: ${error.code === 'ENOENT' ? 'no such file' : error.code ?? error.message}`);
  });
  const kind = notAFile(info);
  if (kind) throw new CaseInputError(file, '(file)', `is ${kind}: a customer document is read only from a regular file`);
  if (info.size > MAX_DOCUMENT_BYTES) throw new CaseInputError(file, '(file)', `is ${info.size} bytes: a customer document is at most ${MAX_DOCUMENT_BYTES} bytes (16 MiB)`);
  const text = await readBounded(file, info);
  const depth = nestingDepth(text);
  if (depth.deepest > MAX_DOCUMENT_DEPTH) {
    throw new CaseInputError(file, '(document)', `nests deeper than ${MAX_DOCUMENT_DEPTH} levels (level ${MAX_DOCUMENT_DEPTH + 1} opens at character ${depth.at}): no document of the service does`);
  }
  try {
    return { value: JSON.parse(text), identity: { dev: info.dev, ino: info.ino } };
  } catch (error) {
    throw new CaseInputError(file, '(file)', `is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Opens without following a link and without waiting for a writer (O_NONBLOCK
 * makes a FIFO swapped in after the lstat open at once), then checks the open
 * file is the one lstat saw, so a file replaced between the two is refused.
 */
async function readBounded(file: string, seen: Stats): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new CaseInputError(file, '(file)', `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.dev !== seen.dev || info.ino !== seen.ino) throw new CaseInputError(file, '(file)', 'changed while it was opened: read it again');
    // One byte more than the bound tells a file that grew past it since the lstat.
    const buffer = Buffer.alloc(Math.min(info.size, MAX_DOCUMENT_BYTES) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > MAX_DOCUMENT_BYTES) throw new CaseInputError(file, '(file)', `grew past ${MAX_DOCUMENT_BYTES} bytes while it was read`);
    if (length > info.size) throw new CaseInputError(file, '(file)', 'changed while it was read: read it again');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, length));
    } catch {
      throw new CaseInputError(file, '(file)', 'is not UTF-8 text');
    }
  } finally {
    await handle.close();
  }
}

/** The deepest nesting of objects and arrays in a JSON text, counted without recursion (brackets inside strings do not count). */
export function nestingDepth(text: string): { deepest: number; at: number } {
  let depth = 0;
  let deepest = 0;
  let at = -1;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (depth === MAX_DOCUMENT_DEPTH + 1) at = i;
      }
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return { deepest, at };
}
