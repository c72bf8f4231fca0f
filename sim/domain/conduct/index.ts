/** Conduct tracking and the graded report (docs/rehearsal.md): this part's one face. */
export * from './lines.ts';
export * from './report.ts';
