import { runScenario, type ScenarioResult } from '../scenario/runner.ts';
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
  for (const file of positionals) {
    try {
      const result = await runScenario(await loadScenario(file), file);
      results.push(result);
      if (!flags.json) process.stdout.write(textTranscript(result));
    } catch (error) {
      if (!(error instanceof ScenarioFormatError)) throw error;
      formatErrors += 1;
      process.stderr.write(`${error.message}\n`);
    }
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(results.map(jsonTranscript), null, 2)}\n`);
  return formatErrors === 0 && results.every((r) => r.passed) ? 0 : 1;
}
