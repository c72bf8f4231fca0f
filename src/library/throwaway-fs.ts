import { writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { StoreFs } from '../../sim/store/store-fs.ts';

const flushed = async () => undefined;

/**
 * The files of a temporary store, which stop() removes and nothing reopens:
 * written as usual (every answer still follows its write), but not flushed
 * to the device (no fsync), since a store nobody reopens gains nothing from
 * surviving a power cut, and a flush can take tens of milliseconds on a busy
 * CI disk: reset() and start would pay it on every test. For the same reason
 * reset() swaps the store's memory and leaves the files to the next checkpoint
 * (StoreFs.neverReopened). A store given by path (options.store) keeps the full
 * durability of `serve`.
 *
 * Writes go to the system's cache at once (write(2) on the calling thread)
 * instead of through libuv's thread pool: with nothing to flush, a write of a
 * commit's few kilobytes takes microseconds, while the pool's round trip left
 * the test process waiting on its event loop twice per commit (the journal's
 * line, then the acknowledged record). Measured 2026-11-28 on a quiet 2-core
 * machine, 200 purchases through the library (reset, quote, accept, two
 * advances, reads): 14.8–15.0 ms a test through the pool, 12.1–12.4 ms so.
 */
export const throwawayStoreFs: StoreFs = {
  neverReopened: true,
  async open(path, flags) {
    const handle = await open(path, flags);
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'sync' || property === 'datasync') return flushed;
        if (property === 'write') return writeNow(target);
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as FileHandle;
  },
};

/** The form of FileHandle.write the store uses (store-fs.ts writeAll), done on this thread. */
const writeNow = (handle: FileHandle) => async (buffer: Uint8Array, offset: number, length: number, position: number | null) => ({
  bytesWritten: writeSync(handle.fd, buffer, offset, length, position),
  buffer,
});
