import { collectCase, waterfallInputOf } from '../case/collect.ts';
import { buildWaterfall, waterfallText } from '../case/waterfall.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { NetworkError } from '../client/index.ts';
import { TARGET_FLAGS, targetOf } from './case-target.ts';

const FLAGS: FlagSpec[] = [...TARGET_FLAGS, { name: 'json', help: 'print the waterfall as JSON' }, { name: 'help', help: 'print this help' }];

/** `understudy explain RUN_ID`: one run's money, part by part, with the rule behind each part. Exit 1 when a check fails. */
export async function explainCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, FLAGS, { positionals: 'RUN_ID' });
  if (flags.help) {
    process.stdout.write(helpText('Usage: understudy explain RUN_ID [--url U] [--key K] [--json]', FLAGS));
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('explain needs exactly one RUN_ID.');
  const target = targetOf(flags);
  let collected: Awaited<ReturnType<typeof collectCase>>;
  try {
    collected = await collectCase({ ...target, runId: positionals[0] });
  } catch (error) {
    // Nothing answering is most often no simulator where it was looked for: say where, and how to point elsewhere.
    if (!(error instanceof NetworkError)) throw error;
    const from = typeof flags.url === 'string' ? '--url' : process.env.UNDERSTUDY_URL ? '$UNDERSTUDY_URL' : 'the default address';
    process.stderr.write(nothingAnswered(positionals[0], target.url, from, error.message));
    return 1;
  }
  const input = waterfallInputOf(collected);
  const waterfall = buildWaterfall(input);
  process.stdout.write(flags.json ? `${JSON.stringify({ runId: input.runId, profile: input.profile, ...waterfall }, null, 2)}\n` : waterfallText(input, waterfall));
  return waterfall.checks.every((c) => c.ok) ? 0 : 1;
}

/** What explain says when no simulator or service answered: the address it tried, where that came from, and the --url form. */
export function nothingAnswered(runId: string, url: string, from: string, failure: string): string {
  return (
    `understudy: nothing answered at ${url} (${from}): ${failure}\n` +
    `Start the simulator there (npm run serve), or name the one that ran the run: understudy explain ${runId} --url http://HOST:PORT\n`
  );
}
