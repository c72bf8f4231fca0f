/** A store file that cannot be used. The file is left exactly as it was found. */
export class StoreFileError extends Error {
  constructor(readonly file: string, readonly problem: string) {
    super(`Cannot open the store file ${file}: ${problem}. The file was left untouched; fix or move it, or pass another --store.`);
    this.name = 'StoreFileError';
  }
}
