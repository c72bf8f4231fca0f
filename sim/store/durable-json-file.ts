import { open, rename, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { frame } from './checksum.ts';
import { StoreFileError } from './store-file-error.ts';
import { nodeStoreFs, writeAll, type StoreFs } from './store-fs.ts';
import type { Adapter } from 'lowdb';

/**
 * One JSON document (an object) in a file, carrying its checksum
 * (sim/store/checksum.ts), whose write survives a crash: the text goes to a temporary
 * file that is flushed to disk, renamed over the target, and the directory is
 * flushed so the rename itself is durable. A reader sees the old file or the
 * new one, never a half-written one.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  /** `parse` checks the checksum: it alone knows which older formats had none. */
  constructor(
    private readonly path: string,
    private readonly parse: (bytes: Buffer) => T,
    private readonly fs: StoreFs = nodeStoreFs,
  ) {}

  async read(): Promise<T | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      // Unreadable (a directory, no permission): refused like an unparsable file, naming it.
      throw new StoreFileError(this.path, (error as Error).message);
    }
    return this.parse(bytes);
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.path, frame(JSON.stringify(data)), this.fs);
  }
}

/** The temporary file a durable write of `path` goes through (a crash can leave it; the store removes it at open). */
export const temporaryOf = (path: string) => join(dirname(path), `.${basename(path)}.tmp`);

/**
 * Writes `text` to `path` whole or not at all. A write that throws (a full disk)
 * leaves `path` as it was and takes its temporary file away, so the space it
 * took is given back.
 */
export async function writeFileDurably(path: string, text: string, fs: StoreFs = nodeStoreFs): Promise<void> {
  const temporary = temporaryOf(path);
  let handle: FileHandle | null = null;
  try {
    handle = await fs.open(temporary, 'w');
    await writeAll(handle, Buffer.from(text), 0, temporary);
    await handle.sync();
    await handle.close();
    handle = null;
    await rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  // The rename is the commit: from here `path` is the new file, so a failure to
  // flush the directory is not reported as a write that did not happen (the
  // caller would take back what the file now says).
  await syncDirectory(dirname(path)).catch(() => undefined);
}

export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
