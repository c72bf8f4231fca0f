import { open, rename, readFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { frame } from './checksum.ts';
import { StoreFileError } from './store-file-error.ts';

/**
 * A lowdb adapter for one JSON document (an object) carrying its checksum
 * (sim/store/checksum.ts), whose write survives a crash: the text goes to a temporary
 * file that is flushed to disk, renamed over the target, and the directory is
 * flushed so the rename itself is durable. A reader sees the old file or the
 * new one, never a half-written one.
 */
export class DurableJsonFile<T> implements Adapter<T> {
  /** `parse` checks the checksum: it alone knows which older formats had none. */
  constructor(private readonly path: string, private readonly parse: (bytes: Buffer) => T) {}

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
    await writeFileDurably(this.path, frame(JSON.stringify(data)));
  }
}

export async function writeFileDurably(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDirectory(dirname(path));
}

export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
