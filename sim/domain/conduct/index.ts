/** Conduct tracking and the graded report (docs/rehearsal.md): this part's one face. */
export * from './line.ts';
export * from './log.ts';
export * from './report.ts';
export { chaosBit, type LineExtras, type LineFacts } from './rows.ts';
