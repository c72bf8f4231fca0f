import { clockFrom, README_SIM_URL, simUrlOf, WALL_CLOCK } from '../webhook/clock.ts';
import { createReceiver } from '../webhook/receiver.ts';
import { probeReceiver } from '../webhook/probe.ts';
import { helpText, parseFlags, portOf, UsageError, type FlagSpec } from './args.ts';

/** understudy webhook listen | probe. */

function simUrlFlag(what: string): FlagSpec {
  return {
    name: 'sim-url',
    value: 'URL',
    help: `${what}, for a simulator started with --webhook-time simulated. Default: the wall clock ('${WALL_CLOCK}'), which the simulator signs with by default`,
    check: (value) => {
      if (value !== WALL_CLOCK && !/^https?:\/\/[^/]/.test(value)) throw new UsageError(`--sim-url takes the simulator's address such as ${README_SIM_URL}, or '${WALL_CLOCK}' (got '${value}').`);
    },
  };
}

const CONTROL_TOKEN_FLAG: FlagSpec = { name: 'control-token', value: 'T', help: "the simulator's --control-token, if it was started with one" };

const LISTEN_FLAGS: FlagSpec[] = [
  { name: 'port', value: 'N', help: 'port to listen on (0 picks one)', default: '4020' },
  { name: 'host', value: 'H', help: 'listen address', default: '127.0.0.1' },
  { name: 'secret', value: 'S', help: 'the destination signing secret (whsec_...)' },
  simUrlFlag("judge each delivery's timestamp by this simulator's clock (GET URL/sim/clock, read per delivery)"),
  CONTROL_TOKEN_FLAG,
  { name: 'help', help: 'print this help' },
];

const PROBE_FLAGS: FlagSpec[] = [
  { name: 'secret', value: 'S', help: 'the signing secret your receiver verifies with' },
  simUrlFlag("sign with this simulator's clock"),
  CONTROL_TOKEN_FLAG,
  { name: 'help', help: 'print this help' },
];

function clockOf(flags: Record<string, string | boolean>) {
  const simUrl = simUrlOf(typeof flags['sim-url'] === 'string' ? flags['sim-url'] : undefined);
  return { simUrl, read: clockFrom(simUrl, typeof flags['control-token'] === 'string' ? flags['control-token'] : undefined) };
}

async function listen(argv: string[]): Promise<number> {
  const { flags } = parseFlags(argv, LISTEN_FLAGS);
  if (flags.help) {
    process.stdout.write(helpText('Usage: understudy webhook listen --port N --secret S [--sim-url URL]', LISTEN_FLAGS));
    return 0;
  }
  if (typeof flags.secret !== 'string') throw new UsageError('--secret is required (the signing secret shown when the destination was created).');
  const clock = clockOf(flags);
  const server = createReceiver({
    secret: flags.secret,
    nowSeconds: clock.read,
    onDelivery: (d) => process.stdout.write(`${JSON.stringify(d)}\n`),
  });
  const host = String(flags.host);
  await new Promise<void>((resolve) => server.listen(portOf(String(flags.port)), host, resolve));
  const port = (server.address() as { port: number }).port;
  process.stdout.write(`understudy webhook receiver listening on http://${host}:${port}\n`);
  const first = await clock.read();
  process.stdout.write(`judging timestamps by the ${first.source}${clock.simUrl ? ', read again for every delivery' : ''}\n`);
  return new Promise((resolve) => {
    const stop = () => server.close(() => resolve(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function probe(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, PROBE_FLAGS, { positionals: 'URL' });
  if (flags.help) {
    process.stdout.write(helpText('Usage: understudy webhook probe URL --secret S', PROBE_FLAGS));
    return 0;
  }
  const [url, ...extra] = positionals;
  if (!url) throw new UsageError('probe needs the URL of your receiver.');
  if (extra.length > 0) throw new UsageError(`probe takes one URL; unexpected '${extra[0]}'.`);
  if (typeof flags.secret !== 'string') throw new UsageError('--secret is required.');
  const now = await clockOf(flags).read();
  process.stdout.write(`signing with the ${now.source}: ${new Date(now.seconds * 1000).toISOString()}\n`);
  const cases = await probeReceiver(url, flags.secret, now);
  for (const c of cases) {
    process.stdout.write(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name.padEnd(32)} expected ${c.expectation}; ${c.detail}\n`);
    if (!c.passed) {
      process.stdout.write(`      sent: ${c.sent}\n`);
      if (c.answered) process.stdout.write(`      answer body: ${c.answered}\n`);
      if (c.hint) process.stdout.write(`      likely cause: ${c.hint}\n`);
    }
    if (c.unseen) process.stdout.write(`      not checked: ${c.unseen}\n`);
  }
  const failed = cases.filter((c) => !c.passed).length;
  const unseen = cases.filter((c) => c.unseen).length;
  process.stdout.write(`${cases.length - failed} passed, ${failed} failed${unseen ? `; ${unseen} not checkable from outside (see "not checked")` : ''}\n`);
  return failed === 0 ? 0 : 1;
}

export async function webhookCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'listen') return listen(rest);
  if (sub === 'probe') return probe(rest);
  throw new UsageError('Usage: understudy webhook listen --port N --secret S | understudy webhook probe URL --secret S');
}
