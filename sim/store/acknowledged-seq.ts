import { readFile, type FileHandle } from 'node:fs/promises';
import { checkFrame, frame } from './checksum.ts';
import { StoreFileError } from './store-file-error.ts';
import { writeAll, type StoreFs } from './store-fs.ts';

/**
 * The witness of what was acknowledged (`PATH.acknowledged`): the sequence number
 * of the last journal entry known to be on disk, written and flushed after each
 * group commit and before anyone waiting on it is answered.
 *
 * Why: the journal alone cannot tell a tail cut off after it was acknowledged
 * from a crash before it was written (both end on a whole line, or a torn one).
 * With the witness, a journal that ends before the change it names lost
 * acknowledged writes, and the store is refused instead of opening without them.
 * A crash between the journal's flush and the witness's leaves the witness behind
 * the journal, which is harmless: the witness only ever has to be a lower bound.
 *
 * One fixed-size record at offset 0, smaller than a disk sector, so a write of it
 * lands whole; it carries its checksum like every other file of the store.
 */
const RECORD_BYTES = 64;

export class AcknowledgedSeq {
  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  /**
   * The sequence number a store's files must reach, or null when there is no
   * witness (a store from before it, or a new one).
   */
  static async read(path: string): Promise<number | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(path, (error as Error).message);
    }
    // Created but never written (a crash right after the store was created): nothing was acknowledged yet.
    if (bytes.length === 0) return null;
    const end = bytes.indexOf(0x20);
    if (bytes.length !== RECORD_BYTES || end <= 0 || checkFrame(bytes, 0, end) !== 'ok') {
      throw new StoreFileError(path, 'byte 0: the record of the last acknowledged change does not match its checksum: the file was damaged or edited');
    }
    const seq = (JSON.parse(bytes.toString('utf8', 0, end)) as { acknowledged?: unknown }).acknowledged;
    if (!Number.isSafeInteger(seq) || (seq as number) < 0) throw new StoreFileError(path, 'byte 0: the record names no change');
    return seq as number;
  }

  static async open(path: string, fs: StoreFs): Promise<AcknowledgedSeq> {
    // Positioned writes need a handle not opened to append; 'r+' keeps the record there until it is overwritten.
    const handle = await fs.open(path, 'r+').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return fs.open(path, 'w+');
      throw error;
    });
    return new AcknowledgedSeq(handle, path);
  }

  /** Records `seq` as acknowledged; throws (a StoreWriteError upstream) when the disk refuses. */
  async record(seq: number): Promise<void> {
    const text = frame(JSON.stringify({ acknowledged: seq }));
    const record = Buffer.alloc(RECORD_BYTES, 0x20);
    record.write(text, 0, 'utf8');
    record[RECORD_BYTES - 1] = 0x0a;
    // Overwritten in place: the file always holds one whole record, the old or the new.
    // Not flushed here: the journal's lines are on disk before this is written, so
    // whatever the disk holds of the record after a power cut names a change the
    // journal holds (a lower bound, all the check needs), and a process that dies
    // leaves the record in the system's cache, which the disk gets anyway. A second
    // fdatasync per commit would cost every acceptance about half a millisecond.
    await writeAll(this.handle, record, 0, this.path);
  }

  async close(): Promise<void> {
    try {
      await this.handle.datasync();
    } finally {
      await this.handle.close();
    }
  }
}
