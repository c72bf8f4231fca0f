import { join } from 'node:path';
import { BUNDLE_FILES, writeBundle } from '../case/bundle.ts';
import { checkCase } from '../case/check.ts';
import { importCase } from '../case/import.ts';
import { collectCase } from '../case/collect.ts';
import { CaseInputError, readCaseDocuments } from '../case/documents.ts';
import { checkNewFiles, writeNewFiles } from '../case/new-files.ts';
import { checkText } from '../case/report.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { TARGET_FLAGS, targetOf } from './case-target.ts';

/**
 * `understudy case import|check|export`: the support case kit (docs/support.md).
 * Exit 0 when done (check: when the reproduction agrees), 1 when check
 * disagrees, 2 for bad input, which names the file and field and writes nothing.
 */
const USAGE = `Usage: understudy case import FILE... [--out scenario.json] [--force]
       understudy case check FILE...|DIR [--json]
       understudy case export RUN_ID --out DIR [--force] [--url U] [--key K]
`;
const FORCE: FlagSpec = { name: 'force', help: 'replace an existing regular file (never a link, never an input document)' };

const IMPORT_FLAGS: FlagSpec[] = [{ name: 'out', value: 'FILE', help: 'write the scenario here, a new file (else it is printed)' }, FORCE, { name: 'help', help: 'print this help' }];
const CHECK_FLAGS: FlagSpec[] = [{ name: 'json', help: 'print the comparison as JSON' }, { name: 'help', help: 'print this help' }];
const EXPORT_FLAGS: FlagSpec[] = [{ name: 'out', value: 'DIR', help: 'the bundle directory (must not hold a bundle already)' }, FORCE, ...TARGET_FLAGS, { name: 'help', help: 'print this help' }];

export async function caseCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'import') return await importCommand(rest);
    if (sub === 'check') return await checkCommand(rest);
    if (sub === 'export') return await exportCommand(rest);
  } catch (error) {
    if (!(error instanceof CaseInputError)) throw error;
    process.stderr.write(`understudy case: ${error.message}\nNothing was written.\n`);
    return 2;
  }
  if (sub === '--help' || sub === 'help' || sub === undefined) {
    process.stdout.write(USAGE);
    return sub === undefined ? 2 : 0;
  }
  throw new UsageError(`Unknown case command '${sub}'.\n${USAGE}`);
}

async function importCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, IMPORT_FLAGS, { positionals: 'FILE...' });
  if (flags.help) return help('understudy case import FILE... [--out scenario.json] [--force]', IMPORT_FLAGS);
  if (positionals.length === 0) throw new UsageError('case import needs at least one FILE.');
  if (flags.force && typeof flags.out !== 'string') throw new UsageError('--force replaces the file --out names: give --out FILE too.');
  const documents = await readCaseDocuments(positionals);
  const { scenario, assumptions } = importCase(documents);
  const text = `${JSON.stringify(scenario, null, 2)}\n`;
  if (typeof flags.out === 'string') {
    const inputs = documents.flatMap((d) => (d.identity ? [d.identity] : []));
    await writeNewFiles([[flags.out, text]], { flag: '--out', force: flags.force === true, inputs });
    process.stdout.write(`wrote ${flags.out} (${scenario.steps.length} steps)\n`);
  } else process.stdout.write(text);
  // Shown on stderr when the scenario goes to stdout, so a pipe gets pure JSON.
  const notes = assumptions.map((a) => `assumed: ${a}\n`).join('');
  (typeof flags.out === 'string' ? process.stdout : process.stderr).write(notes);
  return 0;
}

async function checkCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, CHECK_FLAGS, { positionals: 'FILE...|DIR' });
  if (flags.help) return help('understudy case check FILE...|DIR [--json]', CHECK_FLAGS);
  if (positionals.length === 0) throw new UsageError('case check needs at least one FILE or a bundle DIR.');
  const check = await checkCase(await readCaseDocuments(positionals));
  if (flags.json) {
    const { rows, breaches, problems, assumptions, agree } = check;
    process.stdout.write(`${JSON.stringify({ runId: check.facts.runId, agree, assumptions, breaches, problems, rows }, null, 2)}\n`);
  } else process.stdout.write(checkText(check));
  return check.agree ? 0 : 1;
}

async function exportCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, EXPORT_FLAGS, { positionals: 'RUN_ID' });
  if (flags.help) return help('understudy case export RUN_ID --out DIR [--force] [--url U] [--key K]', EXPORT_FLAGS);
  if (positionals.length !== 1) throw new UsageError('case export needs exactly one RUN_ID.');
  if (typeof flags.out !== 'string') throw new UsageError('case export needs --out DIR.');
  const force = flags.force === true;
  // Refused before the service is asked anything (on the simulator, collecting makes and revokes a key): a DIR holding any bundle file, or a link.
  await checkNewFiles(BUNDLE_FILES.map((name) => join(flags.out as string, name)), { flag: '--out', force }, flags.out);
  const collected = await collectCase({ ...targetOf(flags), runId: positionals[0] });
  const written = await writeBundle(collected, flags.out, { force });
  process.stdout.write(`wrote ${written.length} files to ${flags.out}:\n${written.map((f) => `  ${f}\n`).join('')}`);
  return 0;
}

function help(usage: string, flags: FlagSpec[]): number {
  process.stdout.write(helpText(`Usage: ${usage}`, flags));
  return 0;
}
