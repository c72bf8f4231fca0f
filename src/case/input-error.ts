/**
 * Bad input to the case kit: it names the file and the field (or flag), and
 * the command that meets it writes nothing and exits 2.
 */
export class CaseInputError extends Error {
  constructor(readonly file: string, readonly field: string, problem: string) {
    super(`${file}: ${field} ${problem}`);
    this.name = 'CaseInputError';
  }
}
