import { runScenario, type ScenarioResult } from '../scenario/runner.ts';
import { sharedSimulators } from '../scenario/simulators.ts';
import { jsonTranscript, textTranscript } from '../scenario/transcript.ts';
import { loadScenario } from '../scenario/load.ts';
import { ScenarioFormatError } from '../scenario/validate.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';

const FLAGS: FlagSpec[] = [
  { name: 'json', help: 'print a machine-readable transcript' },
  { name: 'help', help: 'print this help' },
];

export async function scenarioCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, FLAGS, { positionals: 'FILE...' });
  if (flags.help) {
    process.stdout.write(helpText('Usage: npm run scenario -- FILE... [--json]', FLAGS));
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('scenario needs at least one FILE.');
  const results: ScenarioResult[] = [];
  let formatErrors = 0;
  const simulators = sharedSimulators();
  try {
    for (const file of positionals) formatErrors += await runFile(file);
  } finally {
    await simulators.closeAll();
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(results.map(jsonTranscript), null, 2)}\n`);
  return formatErrors === 0 && results.every((r) => r.passed) ? 0 : 1;

  /** One file: its result kept (and printed), or 1 for a format error. */
  async function runFile(file: string): Promise<number> {
    try {
      const scenario = await loadScenario(file);
      const result = await runScenario(scenario, file, simulators);
      results.push(result);
      // A reproduced case says what it chose where the customer's documents were silent.
      if (!flags.json) process.stdout.write((scenario.assumptions ?? []).map((a) => `assumed: ${a}\n`).join('') + textTranscript(result));
      return 0;
    } catch (error) {
      if (!(error instanceof ScenarioFormatError)) throw error;
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
  }
}
