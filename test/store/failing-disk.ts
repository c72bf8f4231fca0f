import { open, type FileHandle } from 'node:fs/promises';
import type { StoreFs } from '../../sim/store/store-fs.ts';

/** Shared by the store's failure tests (not a test file). */

const failure = (code: string, path: string) => Object.assign(new Error(`${code}: simulated for ${path}`), { code });

/**
 * A disk for the store (its `fs` option) that fills up: writes to the files
 * `affects` picks take at most `room` bytes in all, then fail with ENOSPC, as a
 * real full disk does (the write that crosses the limit is short, the next one
 * fails). `failSync` makes fdatasync/fsync fail instead (EIO).
 */
export class FailingDisk implements StoreFs {
  room = Number.POSITIVE_INFINITY;
  failSync = false;
  affects: (path: string) => boolean = () => true;
  /** Writes refused so far. */
  refusals = 0;

  async open(path: string, flags: 'a' | 'w' | 'w+' | 'r+'): Promise<FileHandle> {
    return this.wrap(await open(path, flags), path);
  }

  /** No more room from now on, for the files `affects` picks (all by default). */
  fill(affects: (path: string) => boolean = () => true, room = 0): void {
    this.affects = affects;
    this.room = room;
  }

  free(): void {
    this.room = Number.POSITIVE_INFINITY;
    this.failSync = false;
  }

  private wrap(handle: FileHandle, path: string): FileHandle {
    const disk = this;
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'write') {
          return async (buffer: Uint8Array, offset = 0, length = buffer.length - offset, position: number | null = null) => {
            if (!disk.affects(path)) return target.write(buffer, offset, length, position);
            const taken = Math.min(length, disk.room);
            if (taken <= 0 && length > 0) {
              disk.refusals += 1;
              throw failure('ENOSPC', path);
            }
            disk.room -= taken;
            return target.write(buffer, offset, taken, position);
          };
        }
        if ((property === 'datasync' || property === 'sync') && disk.failSync && disk.affects(path)) {
          return async () => {
            disk.refusals += 1;
            throw failure('EIO', path);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

/** The journal, or the file a rotation writes it as (renamed over it, written through the same handle after). */
export const isJournal = (path: string) => /\.journal(\.tmp)?$/.test(path);
export const isSnapshotTemporary = (path: string) => path.endsWith('.store.json.tmp');
export const isArchive = (path: string) => /\.rows\.\d+$/.test(path);
