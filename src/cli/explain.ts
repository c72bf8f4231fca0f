import { collectCase, waterfallInputOf } from '../case/collect.ts';
import { buildWaterfall, waterfallText } from '../case/waterfall.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
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
  const collected = await collectCase({ ...targetOf(flags), runId: positionals[0] });
  const input = waterfallInputOf(collected);
  const waterfall = buildWaterfall(input);
  process.stdout.write(flags.json ? `${JSON.stringify({ runId: input.runId, profile: input.profile, ...waterfall }, null, 2)}\n` : waterfallText(input, waterfall));
  return waterfall.checks.every((c) => c.ok) ? 0 : 1;
}
