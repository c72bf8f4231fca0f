/**
 * A change the store could not put on disk (a full disk, an I/O error). The
 * change was taken back: neither memory nor the files hold it, and the store
 * goes on serving; the next write tries the disk again.
 */
export class StoreWriteError extends Error {
  /** The file system's error code (ENOSPC, EIO…), when it gave one. */
  readonly code: string | undefined;

  constructor(readonly file: string, cause: unknown) {
    super(`The store file ${file} could not be written: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'StoreWriteError';
    this.code = (cause as NodeJS.ErrnoException)?.code;
  }
}

/**
 * A write refused because the whole state is being replaced (a snapshot import):
 * it would be lost with the state it was made against. Nothing was applied.
 */
export class StoreBusyError extends Error {
  constructor(readonly file: string) {
    super(`The store ${file} is being replaced by an import: nothing was changed; try again when it has ended.`);
    this.name = 'StoreBusyError';
  }
}
