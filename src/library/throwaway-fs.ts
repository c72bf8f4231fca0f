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
 */
export const throwawayStoreFs: StoreFs = {
  neverReopened: true,
  async open(path, flags) {
    const handle = await open(path, flags);
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'sync' || property === 'datasync') return flushed;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as FileHandle;
  },
};
