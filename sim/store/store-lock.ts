import { open, readFile, unlink } from 'node:fs/promises';
import { StoreFileError } from './store-file-error.ts';

/**
 * One process at a time per store: two would interleave journal lines, and one's
 * checkpoint would rename the journal under the other's appends. The lock is a
 * file beside the store holding its owner's process id. A lock whose process is
 * gone (killed, crashed) is taken over; a live owner's is refused, naming it.
 */
export class StoreLock {
  private constructor(readonly path: string) {}

  static async acquire(storePath: string): Promise<StoreLock> {
    const path = `${storePath}.lock`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const handle = await open(path, 'wx');
        try {
          await handle.writeFile(`${process.pid}\n`);
        } finally {
          await handle.close();
        }
        return new StoreLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StoreFileError(path, (error as Error).message);
      }
      const owner = await ownerOf(path);
      if (owner !== null && isRunning(owner)) {
        throw new StoreFileError(path, `the store is in use by process ${owner} (another understudy on the same --store); stop it, or delete this file if that process is not understudy`);
      }
      // Left by a process that is gone: take it over (another starter may race us to it; the loop retries).
      await unlink(path).catch(() => undefined);
    }
    throw new StoreFileError(path, 'the store lock could not be taken (another process keeps taking it)');
  }

  async release(): Promise<void> {
    await unlink(this.path).catch(() => undefined);
  }
}

async function ownerOf(path: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(path, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
