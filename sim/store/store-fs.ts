import { open, type FileHandle } from 'node:fs/promises';

/**
 * The one door through which the store opens the files it writes (journal,
 * snapshot, archive). node:fs by default; tests hand in one whose disk fills up,
 * so the write-failure paths run on every machine, not only where a small file
 * system can be mounted.
 */
export interface StoreFs {
  open(path: string, flags: 'a' | 'w' | 'w+' | 'r+'): Promise<FileHandle>;
  /**
   * Nothing ever reopens these files (the library's temporary store, removed at its
   * stop): replacing the whole state (reset, import) then swaps memory and leaves the
   * files to the next checkpoint, instead of rewriting them first. Measured 2026-11-28
   * (load 11–14): that forced checkpoint was 17 ms of reset()'s 20 ms.
   */
  neverReopened?: boolean;
}

export const nodeStoreFs: StoreFs = { open: (path, flags) => open(path, flags) };

/** What a write that took no bytes throws (a file system that reports no error for it would otherwise loop forever). */
const noProgress = (path: string) => Object.assign(new Error(`no bytes could be written to ${path}`), { code: 'ENOSPC' });

/**
 * Writes every byte or throws: write(2) may take fewer bytes than asked (a disk
 * that fills mid-write takes what fits, and the next call fails with ENOSPC), so
 * one call's success says nothing about the whole. `position` null: at the
 * file's position (the end, for a file opened to append).
 */
export async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number | null, path: string): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position === null ? null : position + done);
    if (bytesWritten <= 0) throw noProgress(path);
    done += bytesWritten;
  }
}
