import { hasControl, scrollCommands, type Command } from './command.ts';

/** The Report screen (GET /sim/report), opened with g from the Request log. */
export const reportCommands: Command[] = [
  { id: 'requests-report', scope: 'requests', keys: [{ input: 'g' }], label: 'g', description: 'graded conduct report', when: hasControl, run: ({ actions }) => actions.shell.go('report') },
  ...scrollCommands('report', (actions, delta, max) => actions.report.scrollReport(delta, max)),
];
