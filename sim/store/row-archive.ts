import { readSync, type PathLike } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { StoreFileError } from './store-file-error.ts';

/**
 * Where an archived row's line sits in the archive file: `offset * SPAN + length`,
 * one number, so an index entry costs a Map slot and no object.
 */
export type RowPointer = number;

/** Lines longer than this, or past MAX_OFFSET, are not archived (their rows stay in memory). */
const SPAN = 2 ** 21;
const MAX_OFFSET = Number.MAX_SAFE_INTEGER / SPAN - 1;

export const pointerLength = (pointer: RowPointer) => pointer % SPAN;

/** One row (or a tombstone, `row: null`) as it goes into the archive. */
export interface ArchiveEntry {
  collection: string;
  id: string;
  row: object | null;
}

/** A row line's header ends here; the row's own JSON follows up to the newline. */
const ROW_MARK = Buffer.from(',"r":');
const NEWLINE = 0x0a;
const SCAN_CHUNK = 1 << 20;
const WRITE_BATCH = 4 << 20;

/**
 * The archive: an append-only file of JSON lines, one row each
 * (`{"c":collection,"i":id,"r":row}`; `"r":null` deletes), beside the snapshot.
 * The store keeps only a pointer per archived row and reads the row back when
 * it is asked for, so the rows of ended runs cost memory only while in use.
 * Bytes past the length the snapshot names were never committed and are cut
 * off on open; later versions of a row win over earlier ones.
 */
export class RowArchive {
  private readonly fd: number;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private length: number,
  ) {
    // Rows are read synchronously: the store's transactions are synchronous.
    this.fd = handle.fd;
  }

  /** Opens (creating when absent) an archive whose committed part is `length` bytes. */
  static async open(path: string, length: number): Promise<RowArchive> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r+');
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing) throw new StoreFileError(path, (error as Error).message);
      if (length > 0) throw new StoreFileError(path, `it is missing, but the snapshot counts ${length} bytes of it`);
      handle = await open(path, 'w+');
    }
    const { size } = await handle.stat();
    if (size < length) {
      await handle.close();
      throw new StoreFileError(path, `it holds ${size} bytes but the snapshot counts ${length}`);
    }
    // A checkpoint that stopped before its snapshot was written left these; they were never committed.
    if (size > length) {
      await handle.truncate(length);
      await handle.sync();
    }
    return new RowArchive(path, handle, length);
  }

  get size(): number {
    return this.length;
  }

  /**
   * Reads the committed lines in order and hands each row's pointer (or null for a
   * tombstone) to `visit`, without parsing the rows themselves.
   */
  scan(visit: (collection: string, id: string, pointer: RowPointer | null) => void): void {
    const chunk = Buffer.allocUnsafe(SCAN_CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let base = 0; // file offset of carry[0]
    let lineNo = 0;
    for (let position = 0; position < this.length; ) {
      const read = readSync(this.fd, chunk, 0, Math.min(SCAN_CHUNK, this.length - position), position);
      if (read === 0) break;
      position += read;
      const buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
        lineNo += 1;
        this.visitLine(buffer, start, end, base + start, lineNo, visit);
        start = end + 1;
      }
      // Copied so the next chunk read cannot overwrite it.
      carry = Buffer.from(buffer.subarray(start));
      base += start;
    }
    if (carry.length > 0) throw new StoreFileError(this.path, `its last line (${lineNo + 1}) is incomplete within the committed length`);
  }

  private visitLine(buffer: Buffer, start: number, end: number, offset: number, lineNo: number, visit: (collection: string, id: string, pointer: RowPointer | null) => void): void {
    const mark = buffer.indexOf(ROW_MARK, start);
    if (mark === -1 || mark > end) throw new StoreFileError(this.path, `line ${lineNo} is not an archived row`);
    let header: { c?: unknown; i?: unknown };
    try {
      header = JSON.parse(`${buffer.toString('utf8', start, mark)}}`);
    } catch (error) {
      throw new StoreFileError(this.path, `line ${lineNo} is not valid JSON (${(error as Error).message})`);
    }
    if (typeof header.c !== 'string' || typeof header.i !== 'string') throw new StoreFileError(this.path, `line ${lineNo} names no collection or id`);
    const rowStart = mark + ROW_MARK.length;
    // The row's JSON, without the closing brace of the line's object.
    const rowLength = end - 1 - rowStart;
    const isTombstone = rowLength === 4 && buffer.toString('latin1', rowStart, rowStart + 4) === 'null';
    visit(header.c, header.i, isTombstone ? null : encode(offset + (rowStart - start), rowLength));
  }

  /** The row a pointer refers to, parsed (and frozen, like every stored row). */
  read(pointer: RowPointer): object {
    const length = pointer % SPAN;
    const offset = (pointer - length) / SPAN;
    const buffer = Buffer.allocUnsafe(length);
    const read = readSync(this.fd, buffer, 0, length, offset);
    if (read !== length) throw new StoreFileError(this.path, `a row at byte ${offset} is cut short`);
    return Object.freeze(JSON.parse(buffer.toString('utf8')));
  }

  /** The bytes of a pointer's row, as archived (for copying into a new archive). */
  rowText(pointer: RowPointer): string {
    const length = pointer % SPAN;
    const buffer = Buffer.allocUnsafe(length);
    readSync(this.fd, buffer, 0, length, (pointer - length) / SPAN);
    return buffer.toString('utf8');
  }

  /**
   * Appends entries and flushes them to disk; returns each entry's pointer (null
   * for a tombstone, or for a row too long to point at, which must stay in
   * memory). Written in bounded batches, so archiving a large store never holds
   * its whole text at once. Not committed until a snapshot names the new length.
   */
  async append(entries: Iterable<{ collection: string; id: string; rowText: string | null }>): Promise<Array<RowPointer | null>> {
    const pointers: Array<RowPointer | null> = [];
    let parts: string[] = [];
    let batchBytes = 0;
    let offset = this.length;
    const writeBatch = async () => {
      const bytes = Buffer.from(parts.join(''));
      for (let written = 0; written < bytes.length; ) {
        written += (await this.handle.write(bytes, written, bytes.length - written, this.length + written)).bytesWritten;
      }
      this.length += bytes.length;
      parts = [];
      batchBytes = 0;
    };
    for (const entry of entries) {
      const head = `{"c":${JSON.stringify(entry.collection)},"i":${JSON.stringify(entry.id)},"r":`;
      const body = entry.rowText ?? 'null';
      const rowOffset = offset + Buffer.byteLength(head);
      const rowLength = Buffer.byteLength(body);
      pointers.push(entry.rowText === null ? null : rowLength < SPAN && rowOffset <= MAX_OFFSET ? encode(rowOffset, rowLength) : null);
      const line = `${head}${body}}\n`;
      const lineBytes = Buffer.byteLength(line);
      parts.push(line);
      offset += lineBytes;
      batchBytes += lineBytes;
      if (batchBytes >= WRITE_BATCH) await writeBatch();
    }
    if (parts.length > 0) await writeBatch();
    await this.handle.datasync();
    return pointers;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  static async remove(path: PathLike): Promise<void> {
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

const encode = (offset: number, length: number): RowPointer => offset * SPAN + length;
