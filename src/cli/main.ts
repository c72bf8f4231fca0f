import { UsageError } from './args.ts';
import { serveCommand } from './serve.ts';

/** argv → tui | serve | scenario | webhook listen | webhook probe | case import/check/export | explain. */
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  tui: async (argv) => {
    drawOnTerminal();
    return (await import('./tui.ts')).tuiCommand(argv);
  },
  serve: serveCommand,
  scenario: async (argv) => (await import('./scenario.ts')).scenarioCommand(argv),
  webhook: async (argv) => (await import('./webhook.ts')).webhookCommand(argv),
  case: async (argv) => (await import('./case.ts')).caseCommand(argv),
  explain: async (argv) => (await import('./explain.ts')).explainCommand(argv),
  rehearse: async (argv) => (await import('./rehearse.ts')).rehearseCommand(argv),
  drift: async (argv) => (await import('./drift.ts')).driftCommand(argv),
};

const USAGE = `Usage: understudy [tui|serve|scenario|webhook|case|explain|rehearse|drift] [flags]
  tui (default)      the terminal console with the simulator embedded
  serve              the simulator alone, headless
  scenario FILE...   run scenario files headless
  webhook listen     a local receiver for signed webhook deliveries
  webhook probe URL  checks your receiver against spec 6.2's receiver rules
  case import|check|export   the support case kit: reproduce a customer's run and compare (docs/support.md)
  explain RUN_ID     one run's money, part by part
  rehearse -- CMD    runs CMD against a fresh simulator (with chaos) and grades its conduct
  drift --url URL    compares a running service with the simulator using free requests (docs/drift.md)
Run a command with --help for its flags.
`;

/**
 * Ink draws only the last frame, at exit, when it thinks it runs in CI (it reads
 * CI and CONTINUOUS_INTEGRATION once, as it loads). The console starts only on a
 * terminal, where someone watches it: a CI variable inherited there (a CI job's
 * shell opened for debugging, a container that exports it) would leave the
 * screen blank, so the console drops both before ink loads.
 */
function drawOnTerminal(): void {
  if (process.stdout.isTTY !== true) return;
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const command = first && !first.startsWith('-') ? first : 'tui';
  const args = first && !first.startsWith('-') ? rest : argv;
  const run = COMMANDS[command];
  if (!run) throw new UsageError(`Unknown command '${command}'.\n${USAGE}`);
  return run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`understudy: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  },
);
