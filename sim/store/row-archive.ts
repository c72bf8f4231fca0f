import { readSync, type PathLike } from 'node:fs';
import { unlink, type FileHandle } from 'node:fs/promises';
import { FRAME_SUFFIX_LENGTH, checkFrame, checksum, frame, hex } from './checksum.ts';
import { StoreFileError } from './store-file-error.ts';
import { nodeStoreFs, writeAll, type StoreFs } from './store-fs.ts';

/**
 * Where an archived row's line sits in the archive file: `offset * SPAN + length`,
 * one number, so an index entry costs a Map slot and no object.
 */
export type RowPointer = number;

/** Lines longer than this, or past MAX_OFFSET, are not archived (their rows stay in memory). */
const SPAN = 2 ** 21;
const MAX_OFFSET = Number.MAX_SAFE_INTEGER / SPAN - 1;

export const pointerLength = (pointer: RowPointer) => pointer % SPAN;

/** A row line's header ends here; the row's own JSON follows up to the newline. */
const ROW_MARK = Buffer.from(',"r":');
const C_MARK = Buffer.from('{"c":"');
const ID_MARK = Buffer.from('","i":"');
const GROUP_MARK = Buffer.from('","g":"');
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const SCAN_CHUNK = 1 << 20;
/**
 * Bytes of lines built (synchronously) between two writes, each of which lets other requests run.
 * Measured on 2 shared cores at load 10 (180,000 rows of the bench's 20,000-run store): the slowest
 * stretch between turns was 215 and 221 ms at 4 MiB, 70 and 97 ms at 1 MiB (issue 29: an import holds
 * other requests up at most 200 ms); 512 KiB did no better within that machine's noise.
 */
const WRITE_BATCH = 1 << 20;

/**
 * The archive: an append-only file of checksummed JSON lines, one row each
 * (`{"c":collection,"i":id,"r":row,"crc":…}`, with `"g":group` before `"r"` for
 * rows of grouped collections; `"r":null` deletes), beside the snapshot.
 * The store keeps only a pointer per archived row and reads the row back when
 * it is asked for, so the rows of ended runs cost memory only while in use.
 * The snapshot names the committed length and the checksum of those bytes (so
 * lines removed, repeated or reordered are found too); bytes past it were never
 * committed. Later versions of a row win over earlier ones.
 */
export class RowArchive {
  private readonly fd: number;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private length: number,
    /** CRC-32 of the first `length` bytes. */
    private crc: number,
    /** Bytes on disk past `length`: left by a checkpoint that never committed. */
    private uncommitted: number,
    /** The checksum the snapshot records for the committed bytes (checked by scan()). */
    private readonly expected: string | null = null,
  ) {
    // Rows are read synchronously: the store's transactions are synchronous.
    this.fd = handle.fd;
  }

  /**
   * Opens an archive whose committed part is `length` bytes with checksum `crc`,
   * changing nothing on disk; scan()
   * then checks it. Null when it is absent and nothing of it was committed.
   */
  static async open(path: string, length: number, crc: string, fs: StoreFs = nodeStoreFs): Promise<RowArchive | null> {
    let handle: FileHandle;
    try {
      handle = await fs.open(path, 'r+');
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing) throw new StoreFileError(path, (error as Error).message);
      if (length > 0) throw new StoreFileError(path, `it is missing, but the snapshot counts ${length} bytes of it`);
      return null;
    }
    const { size } = await handle.stat();
    if (size < length) {
      await handle.close();
      throw new StoreFileError(path, `it holds ${size} bytes but the snapshot counts ${length}`);
    }
    return new RowArchive(path, handle, length, 0, size - length, crc);
  }

  /** A new, empty archive (a checkpoint's new generation), replacing whatever was at `path`. */
  static async create(path: string, fs: StoreFs = nodeStoreFs): Promise<RowArchive> {
    return new RowArchive(path, await fs.open(path, 'w+'), 0, 0, 0);
  }

  /**
   * Cuts off what a checkpoint that never committed left past the committed
   * length. Only once the whole store has been checked: until then the length
   * the snapshot names is not known to be right.
   */
  async cutUncommittedTail(): Promise<void> {
    if (this.uncommitted === 0) return;
    await this.handle.truncate(this.length);
    await this.handle.sync();
    this.uncommitted = 0;
  }

  /** The checksum of the committed bytes, as the snapshot records it. */
  get checksum(): string {
    return hex(this.crc);
  }

  get size(): number {
    return this.length;
  }

  /**
   * Reads the committed lines in order, checking each line's checksum and that of
   * the whole, and hands each row's pointer (or null for a tombstone) to `visit`,
   * without parsing the rows themselves.
   */
  scan(visit: (collection: string, id: string, pointer: RowPointer | null, group: string | null) => void): void {
    // One buffer for the whole scan: a line cut by the chunk's end is moved to its
    // start and the next read goes after it (allocating per chunk would leave
    // hundreds of megabytes of buffers for the collector on a large archive).
    let buffer = Buffer.allocUnsafe(SCAN_CHUNK);
    let held = 0; // bytes at the buffer's start carried over from the last read
    let base = 0; // file offset of buffer[0]
    let lineNo = 0;
    for (let position = 0; position < this.length; ) {
      if (held === buffer.length) {
        // A line longer than the buffer: grow it.
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, held);
        buffer = larger;
      }
      const read = readSync(this.fd, buffer, held, Math.min(buffer.length - held, this.length - position), position);
      if (read === 0) break;
      this.crc = checksum(buffer.subarray(held, held + read), this.crc);
      position += read;
      const filled = held + read;
      let start = 0;
      for (let end = buffer.indexOf(NEWLINE, start); end !== -1 && end < filled; end = buffer.indexOf(NEWLINE, start)) {
        lineNo += 1;
        this.visitLine(buffer, start, end, base + start, lineNo, visit);
        start = end + 1;
      }
      held = filled - start;
      buffer.copy(buffer, 0, start, filled);
      base += start;
    }
    if (held > 0) throw new StoreFileError(this.path, `its last line (${lineNo + 1}, byte ${base}) is incomplete within the committed length`);
    if (this.checksum !== this.expected) {
      throw new StoreFileError(this.path, `its ${this.length} committed bytes do not match the checksum the snapshot records: lines were removed, repeated, reordered or changed`);
    }
  }

  private visitLine(buffer: Buffer, start: number, end: number, offset: number, lineNo: number, visit: (collection: string, id: string, pointer: RowPointer | null, group: string | null) => void): void {
    const check = checkFrame(buffer, start, end);
    if (check !== 'ok') throw new StoreFileError(this.path, `line ${lineNo} (byte ${offset}) ${check === 'damaged' ? 'does not match its checksum' : 'has no checksum'}: the file was damaged or edited`);
    const mark = buffer.indexOf(ROW_MARK, start);
    if (mark === -1 || mark > end) throw new StoreFileError(this.path, `line ${lineNo} (byte ${offset}) is not an archived row`);
    const header = this.header(buffer, start, mark, lineNo);
    const rowStart = mark + ROW_MARK.length;
    // The row's JSON, without the checksum and closing brace of the line's object.
    const rowLength = end - FRAME_SUFFIX_LENGTH - rowStart;
    const isTombstone = rowLength === 4 && buffer.toString('latin1', rowStart, rowStart + 4) === 'null';
    visit(header.c, header.i, isTombstone ? null : encode(offset + (rowStart - start), rowLength), header.g);
  }

  /** `{"c":…,"i":…[,"g":…]` read straight from the bytes when nothing in it is escaped (the usual case), else parsed. */
  private header(buffer: Buffer, start: number, mark: number, lineNo: number): { c: string; i: string; g: string | null } {
    const header = buffer.subarray(start, mark);
    const found = header.indexOf(ID_MARK);
    const split = found === -1 ? -1 : start + found;
    const plain = split !== -1 && header.indexOf(BACKSLASH) === -1 && buffer.subarray(start, start + C_MARK.length).equals(C_MARK) && buffer[mark - 1] === QUOTE;
    if (plain) {
      // Searched within the header only: a search to the buffer's end for every line would be quadratic.
      const groupFound = buffer.subarray(split + ID_MARK.length, mark).indexOf(GROUP_MARK);
      const groupAt = groupFound === -1 ? -1 : split + ID_MARK.length + groupFound;
      const idEnd = groupAt === -1 ? mark - 1 : groupAt;
      return {
        c: buffer.toString('utf8', start + C_MARK.length, split),
        i: buffer.toString('utf8', split + ID_MARK.length, idEnd),
        g: idEnd === groupAt ? buffer.toString('utf8', groupAt + GROUP_MARK.length, mark - 1) : null,
      };
    }
    let parsed: { c?: unknown; i?: unknown; g?: unknown };
    try {
      parsed = JSON.parse(`${buffer.toString('utf8', start, mark)}}`);
    } catch (error) {
      throw new StoreFileError(this.path, `line ${lineNo} is not valid JSON (${(error as Error).message})`);
    }
    if (typeof parsed.c !== 'string' || typeof parsed.i !== 'string') throw new StoreFileError(this.path, `line ${lineNo} names no collection or id`);
    if (parsed.g !== undefined && typeof parsed.g !== 'string') throw new StoreFileError(this.path, `line ${lineNo} has a group that is not a string`);
    return { c: parsed.c, i: parsed.i, g: parsed.g ?? null };
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
   * its whole text at once. Not committed until a snapshot names the new length
   * (a checkpoint that fails before that calls abandon()).
   */
  async append(entries: Iterable<{ collection: string; id: string; group?: string | null; rowText: string | null }>): Promise<Array<RowPointer | null>> {
    const pointers: Array<RowPointer | null> = [];
    let parts: string[] = [];
    let batchBytes = 0;
    let offset = this.length;
    const writeBatch = async () => {
      const bytes = Buffer.from(parts.join(''));
      await writeAll(this.handle, bytes, this.length, this.path);
      this.crc = checksum(bytes, this.crc);
      this.length += bytes.length;
      parts = [];
      batchBytes = 0;
    };
    for (const entry of entries) {
      const group = entry.group == null ? '' : `,"g":${JSON.stringify(entry.group)}`;
      const head = `{"c":${JSON.stringify(entry.collection)},"i":${JSON.stringify(entry.id)}${group},"r":`;
      const body = entry.rowText ?? 'null';
      const rowOffset = offset + Buffer.byteLength(head);
      const rowLength = Buffer.byteLength(body);
      pointers.push(entry.rowText === null ? null : rowLength < SPAN && rowOffset <= MAX_OFFSET ? encode(rowOffset, rowLength) : null);
      const line = `${frame(`${head}${body}}`)}\n`;
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

  /** Forgets what was appended past `length` (never committed): the next append writes over it. */
  abandon(length: number): void {
    if (length >= this.length) return;
    this.crc = this.checksumOfFirst(length);
    this.length = length;
  }

  /**
   * The running checksum of the first `length` bytes, read back from the file: only
   * a checkpoint that failed needs it, so no checksum is kept per append for it.
   */
  private checksumOfFirst(length: number): number {
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(SCAN_CHUNK, length)));
    let crc = 0;
    for (let position = 0; position < length; ) {
      const read = readSync(this.fd, buffer, 0, Math.min(buffer.length, length - position), position);
      if (read === 0) throw new StoreFileError(this.path, `it ends at byte ${position}, before the ${length} bytes committed`);
      crc = checksum(buffer.subarray(0, read), crc);
      position += read;
    }
    return crc;
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
