import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { planText } from '../drift/plan.ts';
import { probeSet } from '../drift/probes/index.ts';
import { driftTable } from '../drift/report.ts';
import { exitCodeOf, runDrift } from '../drift/run.ts';
import { targetOf, TargetError } from '../drift/target.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';

const FLAGS: FlagSpec[] = [
  { name: 'url', value: 'URL', help: 'the service to check (https://, or http:// on a loopback host)' },
  { name: 'key', value: 'KEY', help: 'your API key (default $UNDERSTUDY_KEY)' },
  { name: 'yes', help: 'send the planned requests without asking' },
  { name: 'json', value: 'FILE', help: 'also write the report as JSON to FILE', check: checkJsonPath },
  { name: 'help', help: 'print this help' },
];

function checkJsonPath(value: string): void {
  const folder = dirname(resolve(value));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw new UsageError(`--json ${value}: the folder ${folder} does not exist.`);
}

/**
 * `understudy drift --url URL --key KEY [--yes] [--json FILE]`: free probes
 * against the service and an embedded simulator, compared pair by pair
 * (docs/drift.md). Exit 0 only when nothing the spec states differs.
 */
export async function driftCommand(argv: string[]): Promise<number> {
  const { flags } = parseFlags(argv, FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('Usage: understudy drift --url URL --key KEY [--yes] [--json FILE]', FLAGS));
    return 0;
  }
  if (typeof flags.url !== 'string') throw new UsageError('--url is required: the address of the service to check.');
  const key = typeof flags.key === 'string' ? flags.key : process.env.UNDERSTUDY_KEY;
  if (!key) throw new UsageError('--key is required (or $UNDERSTUDY_KEY): the API key the probes are sent with.');
  let target;
  try {
    target = targetOf(flags.url, key);
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
  process.stdout.write(planText(target.url, probeSet('plan'), target.testEnvironment));
  if (!flags.yes) {
    process.stderr.write('Nothing was sent. Run again with --yes to send these requests.\n');
    return 2;
  }
  process.stdout.write('\n');
  const report = await runDrift({ target });
  process.stdout.write(driftTable(report));
  if (typeof flags.json === 'string') {
    await writeFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`Report written to ${flags.json}.\n`);
  }
  return exitCodeOf(report);
}
