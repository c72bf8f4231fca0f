/** The files of one store, beside its snapshot `PATH`. */
export class StorePaths {
  constructor(readonly snapshot: string) {}

  get journal(): string {
    return `${this.snapshot}.journal`;
  }

  /** Where the last acknowledged change is recorded (acknowledged-seq.ts). */
  get acknowledged(): string {
    return `${this.snapshot}.acknowledged`;
  }

  archive(generation: number): string {
    return `${this.snapshot}.rows.${generation}`;
  }
}
